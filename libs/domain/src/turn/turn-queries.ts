import { assertNever } from '../decider';
import type { EndedTurn, Lease, ToolCall, TurnState } from './turn-state';

/** Completed, failed or cancelled. */
export const isTurnTerminal = (state: TurnState): state is EndedTurn =>
  state.status === 'completed' || state.status === 'failed' || state.status === 'cancelled';

/** The step a worker runs next: one after the last committed step. */
export const nextStep = (state: TurnState): number => (state.status === 'none' ? 1 : state.steps.length + 1);

export const lastStep = (state: TurnState) => (state.status === 'none' ? undefined : state.steps.at(-1));

const callsWhere = (state: TurnState, keep: (call: ToolCall) => boolean): ToolCall[] =>
  state.status === 'none' ? [] : state.steps.flatMap((s) => s.calls.filter(keep));

/** Step and index of a call id `{turnId}:{step}:{index}`, or undefined when it has another form. */
export function callPosition(callId: string): { step: number; index: number } | undefined {
  const m = /:([1-9][0-9]*):([0-9]+)$/.exec(callId);
  return m ? { step: Number(m[1]), index: Number(m[2]) } : undefined;
}

/** One ledger entry by call id, or undefined. */
export function toolCall(state: TurnState, callId: string): ToolCall | undefined {
  if (state.status === 'none') return undefined;
  const at = callPosition(callId);
  const call = at && state.steps[at.step - 1]?.calls[at.index];
  return call && call.callId === callId ? call : undefined;
}

/** Calls committed by a step and not started yet, in step and index order. */
export const pendingCalls = (state: TurnState) => callsWhere(state, (c) => c.status === 'intended');

/**
 * Calls that started and have no result: an async call in flight, or one a crashed worker left
 * behind (retry it if the tool is idempotent, else record its outcome as unknown).
 */
export const callsAwaitingCompletion = (state: TurnState) => callsWhere(state, (c) => c.status === 'started');

/** Calls of one step, in index order. */
export function callsOfStep(state: TurnState, step: number): ToolCall[] {
  if (state.status === 'none') return [];
  return [...(state.steps[step - 1]?.calls ?? [])];
}

/** Every call has a result or a recorded unknown outcome. */
export const allCallsSettled = (state: TurnState) =>
  callsWhere(state, (c) => c.status === 'intended' || c.status === 'started').length === 0;

const millis = (iso: string) => Date.parse(iso);

/** No lease, or its time is up at `now` (ISO 8601): another worker may take the turn. */
export function leaseExpired(state: TurnState, now: string): boolean {
  const lease = leaseOf(state);
  return lease === null || millis(lease.leaseUntil) <= millis(now);
}

export const leaseOf = (state: TurnState): Lease | null => (state.status === 'none' ? null : state.lease);

/** Whether `workerId` holds a live lease of the current generation at `now`. */
export function holdsLease(state: TurnState, workerId: string, generation: number, now: string): boolean {
  const lease = leaseOf(state);
  return lease !== null && lease.workerId === workerId && lease.generation === generation && !leaseExpired(state, now);
}

/**
 * Whether what a waiting turn waits on has arrived, so the watchdog (or a completion handler)
 * may resume it. Jobs and checkpoints live on other streams: the caller answers for them.
 */
export function waitSatisfied(
  state: TurnState,
  external: { jobDone?: (jobId: string) => boolean; checkpointResolved?: (checkpointId: string) => boolean } = {},
): boolean {
  if (state.status !== 'waiting') return false;
  const on = state.waitingOn;
  switch (on.kind) {
    case 'calls':
      return on.callIds.every((id) => {
        const status = toolCall(state, id)?.status;
        return status === 'completed' || status === 'unknown';
      });
    case 'jobs':
      return external.jobDone !== undefined && on.jobIds.every(external.jobDone);
    case 'checkpoint':
      return external.checkpointResolved?.(on.checkpointId) ?? false;
    default:
      return assertNever(on, 'wait target');
  }
}
