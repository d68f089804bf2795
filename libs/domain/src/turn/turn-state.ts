import type { EventDataMap } from '@lomo/contracts';

type Data<T extends keyof EventDataMap> = EventDataMap[T];

export type WakeReason = Data<'TurnStarted'>['reason'];
export type WaitTarget = Data<'TurnWaiting'>['on'];
export type TypedError = Data<'TurnFailed'>['error'];
export type ToolCallIntent = Data<'ModelStepCommitted'>['toolCallIntents'][number];
export type TokenUsage = Data<'ModelStepCommitted'>['usage'];
/** A content-addressed BlobStore reference (the prompt of a step, a large tool result). */
export type BlobReference = Data<'ModelStepCommitted'>['promptRef'];
export type StepFinishReason = Data<'ModelStepCommitted'>['finishReason'];
export type StepContext = NonNullable<Data<'ModelStepCommitted'>['context']>;
export type ToolResultStatus = Data<'ToolCallCompleted'>['status'];
/** Any JSON value, null included. */
export type ToolResult = Exclude<Data<'ToolCallCompleted'>['result'], undefined>;
export type UnknownOutcomeReason = Data<'ToolCallOutcomeUnknown'>['reason'];
export type CancelReason = Data<'TurnCancelled'>['reason'];

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
  usage: TokenUsage;
  promptRef: BlobReference;
  finishReason: StepFinishReason;
  /** How its prompt was built; null for steps committed before context accounting. */
  context: StepContext | null;
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
  outcome: ToolResultStatus | null;
  result?: ToolResult;
  resultRef?: BlobReference;
  error?: TypedError;
  unknownReason?: UnknownOutcomeReason;
  /** True when the result arrived after the turn ended (recorded, changes nothing). */
  completedAfterClose: boolean;
}

/** What every existing turn carries, whatever its status. */
export interface TurnBase {
  turnId: string;
  taskId: string;
  reason: WakeReason;
  /** Generation of the latest lease; 0 before the first. Commands naming another one are stale. */
  generation: number;
  steps: readonly CommittedStep[];
}

export type TurnCancellation = Data<'TurnCancelled'>;

/**
 * Waiting for a worker: before the first lease (generation 0), or resumed after a wait, whose
 * lease was released, so the next lease raises the generation.
 */
export interface QueuedTurn extends TurnBase {
  status: 'queued';
  lease: null;
}

/** Held by a worker: TurnLeased moved it here, renewals and takeovers keep it here. */
export interface RunningTurn extends TurnBase {
  status: 'running';
  lease: Lease;
}

/** The worker is released while the turn waits (TurnWaiting); resuming queues it again. */
export interface WaitingTurn extends TurnBase {
  status: 'waiting';
  lease: null;
  waitingOn: WaitTarget;
}

export interface CompletedTurn extends TurnBase {
  status: 'completed';
  lease: null;
  /** TurnCompleted's summary, when it gave one. */
  summary: string | null;
}

export interface FailedTurn extends TurnBase {
  status: 'failed';
  lease: null;
  error: TypedError;
}

export interface CancelledTurn extends TurnBase {
  status: 'cancelled';
  lease: null;
  cancelledBy: TurnCancellation;
}

/** Not ended: the statuses that take leases, steps, waits and the end of the turn. */
export type LiveTurn = QueuedTurn | RunningTurn | WaitingTurn;
/** Completed, failed or cancelled: only late tool results are still recorded. */
export type EndedTurn = CompletedTurn | FailedTurn | CancelledTurn;
export type ExistingTurn = LiveTurn | EndedTurn;

export type TurnState = { status: 'none' } | ExistingTurn;

export type TurnStatus = TurnState['status'];

export const initialTurnState = (): TurnState => ({ status: 'none' });

export const terminalTurnStatuses = ['completed', 'failed', 'cancelled'] as const;
