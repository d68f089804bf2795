import fc from 'fast-check';
import { checkDecidedEvents, commandArbitraries, expectEventTypesOfCategory } from '@lomo/testing';
import { turnDecider } from './turn-decider';
import type {
  CancelTurn,
  CommitStep,
  CompleteToolCall,
  CompleteTurn,
  FailTurn,
  RecordToolOutcomeUnknown,
  ReleaseLease,
  RenewLease,
  ResumeTurn,
  StartToolCall,
  StartTurn,
  TakeLease,
  TurnCommand,
  WaitTurn,
} from './turn-commands';
import { turnEventTypes, type TurnEvent } from './turn-events';
import type { TurnState } from './turn-state';
import { at, call, promptRef, runtime, turnIds, usage } from './turn.fixtures';

// Random command sequences over few workers, generations, steps and call ids: every decided event
// must parse with its contract schema, and the fencing and ledger invariants hold after each step.
const { cmd, weighted } = commandArbitraries<TurnCommand>();
const worker = fc.constantFrom('worker-a', 'worker-b');
/** CURRENT stands for the turn's generation at the time (resolved in the loop), so most commands are not stale. */
const CURRENT = -1;
const generation = fc.oneof(
  { weight: 3, arbitrary: fc.constant(CURRENT) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 3 }) },
);
const now = fc.integer({ min: 0, max: 120 }).map(at);
const leaseMs = fc.constantFrom(10_000, 30_000);
const step = fc.integer({ min: 1, max: 2 });
const callId = fc.tuple(step, fc.integer({ min: 0, max: 1 })).map(([s, i]) => call(s, i));
const error = fc.constant({ code: 'TOOL_FAILED', message: 'no', retriable: false });

const start = cmd<StartTurn>({
  type: fc.constant('StartTurn'),
  turnId: fc.constant(turnIds.turn),
  taskId: fc.constant(turnIds.task),
  reason: fc.constantFrom('message', 'watchdog'),
});

const commit: fc.Arbitrary<TurnCommand> = fc
  .record({ generation, step, tools: fc.integer({ min: 0, max: 2 }) })
  .map(({ generation: g, step: s, tools }): CommitStep => ({
    type: 'CommitStep',
    generation: g,
    step: s,
    reply: `step ${s}`,
    toolCallIntents: Array.from({ length: tools }, (_, i) => ({
      callId: call(s, i),
      tool: 'notes.read',
      arguments: { i },
    })),
    consumedItemIds: s === 1 ? [turnIds.item] : [],
    usage,
    promptRef,
    finishReason: tools > 0 ? 'tool_calls' : 'stop',
  }));

const command: fc.Arbitrary<TurnCommand> = fc.oneof(
  weighted(1, start),
  weighted(5, cmd<TakeLease>({ type: fc.constant('TakeLease'), workerId: worker, now, leaseMs })),
  weighted(2, cmd<RenewLease>({ type: fc.constant('RenewLease'), workerId: worker, generation, now, leaseMs })),
  weighted(1, cmd<ReleaseLease>({ type: fc.constant('ReleaseLease'), workerId: worker, generation, now })),
  weighted(6, commit),
  weighted(
    6,
    cmd<StartToolCall>({
      type: fc.constant('StartToolCall'),
      generation,
      callId,
      attempt: fc.integer({ min: 1, max: 2 }),
    }),
  ),
  weighted(
    5,
    fc.oneof(
      cmd<CompleteToolCall>({
        type: fc.constant('CompleteToolCall'),
        callId,
        status: fc.constant('ok'),
        result: fc.constantFrom('done', 42),
      }),
      cmd<CompleteToolCall>({ type: fc.constant('CompleteToolCall'), callId, status: fc.constant('error'), error }),
    ),
  ),
  weighted(
    4,
    cmd<RecordToolOutcomeUnknown>({
      type: fc.constant('RecordToolOutcomeUnknown'),
      generation,
      callId,
      reason: fc.constantFrom('started_without_result_not_idempotent', 'worker_lost'),
    }),
  ),
  weighted(
    2,
    cmd<WaitTurn>({
      type: fc.constant('WaitTurn'),
      generation,
      on: fc.oneof(
        fc.record({ kind: fc.constant('calls' as const), callIds: fc.tuple(callId).map((c) => [...c]) }),
        fc.record({ kind: fc.constant('jobs' as const), jobIds: fc.constant<string[]>([turnIds.job]) }),
        fc.record({ kind: fc.constant('checkpoint' as const), checkpointId: fc.constant(turnIds.checkpoint) }),
      ),
    }),
  ),
  weighted(
    2,
    cmd<ResumeTurn>({ type: fc.constant('ResumeTurn'), reason: fc.constantFrom('job_completed', 'watchdog') }),
  ),
  weighted(
    1,
    cmd<CompleteTurn>({ type: fc.constant('CompleteTurn'), generation, steps: fc.integer({ min: 0, max: 3 }) }),
  ),
  weighted(
    1,
    cmd<FailTurn>({ type: fc.constant('FailTurn'), generation: fc.option(generation, { nil: undefined }), error }),
  ),
  weighted(
    1,
    cmd<CancelTurn>({
      type: fc.constant('CancelTurn'),
      by: fc.constant(runtime),
      reason: fc.constantFrom('task_stopped', 'operator'),
    }),
  ),
);

function resolve(command: TurnCommand, state: TurnState): TurnCommand {
  if (!('generation' in command) || command.generation !== CURRENT) return command;
  return { ...command, generation: state.status === 'none' ? 1 : Math.max(state.generation, 1) };
}

const terminal = (s: TurnState) => s.status === 'completed' || s.status === 'failed' || s.status === 'cancelled';

function assertTransition(before: TurnState, event: TurnEvent, after: TurnState): void {
  if (before.status === 'none' || after.status === 'none') return;
  // The generation never goes down, and rises by exactly one on a new lease.
  expect(after.generation).toBeGreaterThanOrEqual(before.generation);
  if (event.type === 'TurnLeased') expect(after.generation).toBe(before.generation + 1);
  // A terminal turn stays terminal; only late tool results are recorded on it.
  if (terminal(before)) {
    expect(after.status).toBe(before.status);
    expect(event.type).toBe('ToolCallCompleted');
  }
  // Steps are contiguous from 1.
  expect(after.steps.map((s) => s.step)).toEqual(after.steps.map((_, i) => i + 1));
}

describe('turn decider: every decided event matches its contract', () => {
  it('lists exactly the turn-stream events of the registry', () => {
    expectEventTypesOfCategory('turn', turnEventTypes);
  });

  it('random command sequences produce only valid events and keep fencing and ledger invariants', () => {
    checkDecidedEvents({
      decider: turnDecider,
      eventTypes: turnEventTypes,
      first: start,
      command,
      prepare: resolve,
      afterEvent: assertTransition,
      run: { numRuns: 300, seed: 5 },
    });
  });
});
