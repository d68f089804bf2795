import type { EventDataMap } from '@lomo/contracts';

type Data<T extends keyof EventDataMap> = EventDataMap[T];

export type WakeReason = Data<'TurnStarted'>['reason'];
export type WaitTarget = Data<'TurnWaiting'>['on'];
export type TypedError = Data<'TurnFailed'>['error'];
export type ToolCallIntent = Data<'ModelStepCommitted'>['toolCallIntents'][number];

export interface Lease {
  workerId: string;
  generation: number;
  /** ISO 8601; the lease is live while `now < leaseUntil`. */
  leaseUntil: string;
}

export interface CommittedStep {
  step: number;
  reply: string;
  callIds: readonly string[];
  /**
   * The step's ledger entries, by index. Kept per step (not in one map for the turn) so that a
   * change copies one step's few calls, and a step costs the same at step 1 and step 1 000.
   */
  calls: readonly ToolCall[];
  consumedItemIds: readonly string[];
  usage: Data<'ModelStepCommitted'>['usage'];
  promptRef: Data<'ModelStepCommitted'>['promptRef'];
  finishReason: Data<'ModelStepCommitted'>['finishReason'];
}

/**
 * The ledger entry of one tool call. `intended` = committed by a step, not started; `started` =
 * ToolCallStarted without a result (running, or lost with a crash); `unknown` = a non-idempotent
 * call that started and lost its result (the model is told); `completed` = a result is recorded.
 */
export type CallStatus = 'intended' | 'started' | 'completed' | 'unknown';

export interface ToolCall {
  callId: string;
  tool: string;
  step: number;
  index: number;
  arguments: ToolCallIntent['arguments'];
  status: CallStatus;
  /** ToolCallStarted events so far (the last one's attempt number). */
  attempts: number;
  outcome: Data<'ToolCallCompleted'>['status'] | null;
  result?: Data<'ToolCallCompleted'>['result'];
  resultRef?: Data<'ToolCallCompleted'>['resultRef'];
  error?: Data<'ToolCallCompleted'>['error'];
  unknownReason?: Data<'ToolCallOutcomeUnknown'>['reason'];
  /** True when the result arrived after the turn ended (recorded, changes nothing). */
  completedAfterClose: boolean;
}

export interface TurnBody {
  turnId: string;
  taskId: string;
  reason: WakeReason;
  /** Generation of the latest lease; 0 before the first. Commands naming another one are stale. */
  generation: number;
  /** Null before the first lease and while the turn waits (the worker was released). */
  lease: Lease | null;
  steps: readonly CommittedStep[];
  waitingOn: WaitTarget | null;
  summary: string | null;
  error: TypedError | null;
  cancelledBy: Data<'TurnCancelled'> | null;
}

export type TurnState =
  { status: 'none' } | (TurnBody & { status: 'queued' | 'running' | 'waiting' | 'completed' | 'failed' | 'cancelled' });

export type TurnStatus = TurnState['status'];
export type ExistingTurn = Extract<TurnState, { turnId: string }>;

export const initialTurnState = (): TurnState => ({ status: 'none' });

export const terminalTurnStatuses = ['completed', 'failed', 'cancelled'] as const;
