import type { Actor } from '@lomo/contracts';
import type {
  BlobReference,
  CancelReason,
  StepContext,
  StepFinishReason,
  TokenUsage,
  ToolCallIntent,
  ToolResult,
  ToolResultStatus,
  TypedError,
  UnknownOutcomeReason,
  WaitTarget,
  WakeReason,
} from './turn-state';

// Commands spell out their own fields rather than reusing an event's data, so a change of an
// event's schema shows up in the decider that maps a command to it, not silently in the command.

export type StartTurn = { type: 'StartTurn'; turnId: string; taskId: string; reason: WakeReason };
/** `now` is ISO 8601 from the caller's clock; the domain never reads one. */
export type TakeLease = { type: 'TakeLease'; workerId: string; now: string; leaseMs: number };
export type RenewLease = { type: 'RenewLease'; workerId: string; generation: number; now: string; leaseMs: number };
/** Lets another worker take over at once (SIGTERM): recorded as a renewal that ends now. */
export type ReleaseLease = { type: 'ReleaseLease'; workerId: string; generation: number; now: string };
export type CommitStep = {
  type: 'CommitStep';
  generation: number;
  step: number;
  reply: string;
  /** Ids `{turnId}:{step}:{index}` (makeCallId), checked by the decider. */
  toolCallIntents: readonly ToolCallIntent[];
  /** The inbox items this step claimed and read. */
  consumedItemIds: readonly string[];
  usage: TokenUsage;
  promptRef: BlobReference;
  finishReason: StepFinishReason;
  /** How the prompt was built: layers, prefix, visible tool domains (ModelStepCommitted.context). */
  context?: StepContext;
};
export type StartToolCall = { type: 'StartToolCall'; generation: number; callId: string; attempt: number };
/** No generation: async completions are appended by whoever finished the work. */
export type CompleteToolCall = {
  type: 'CompleteToolCall';
  callId: string;
  status: ToolResultStatus;
  /** Small results inline; large ones by reference. */
  result?: ToolResult;
  resultRef?: BlobReference;
  /** Required for an `error` result, and only there. */
  error?: TypedError;
};
export type RecordToolOutcomeUnknown = {
  type: 'RecordToolOutcomeUnknown';
  generation: number;
  callId: string;
  reason: UnknownOutcomeReason;
};
/** A call the person declined: recorded as an error result without ever starting it. */
/** Ends an intended call with an error result, never run; `code` defaults to CALL_DECLINED. */
export type DeclineToolCall = {
  type: 'DeclineToolCall';
  generation: number;
  callId: string;
  message: string;
  code?: string;
};
export type WaitTurn = { type: 'WaitTurn'; generation: number; on: WaitTarget };
export type ResumeTurn = { type: 'ResumeTurn'; reason: WakeReason };
/** `steps` must equal the number of committed steps. */
export type CompleteTurn = { type: 'CompleteTurn'; generation: number; steps: number; summary?: string };
/**
 * A waiting turn whose every call has its result ends without another model step: a one-shot
 * job's result is the answer (libs/generation/src/service/plan-wake.ts). Whoever records the last
 * result may do it; no worker holds a waiting turn, so there is no generation to fence.
 */
export type CompleteWaitingTurn = { type: 'CompleteWaitingTurn'; summary?: string };
/** Without a generation (the watchdog giving up on a turn) it fails whatever holds the lease. */
export type FailTurn = { type: 'FailTurn'; generation?: number; error: TypedError };
export type CancelTurn = { type: 'CancelTurn'; by: Actor; reason: CancelReason };

export type TurnCommand =
  | StartTurn
  | TakeLease
  | RenewLease
  | ReleaseLease
  | CommitStep
  | StartToolCall
  | CompleteToolCall
  | RecordToolOutcomeUnknown
  | DeclineToolCall
  | WaitTurn
  | ResumeTurn
  | CompleteTurn
  | CompleteWaitingTurn
  | FailTurn
  | CancelTurn;
