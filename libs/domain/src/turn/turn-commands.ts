import type { EventDataMap } from '@lomo/contracts';
import type { WaitTarget } from './turn-state';

type Data<T extends keyof EventDataMap> = EventDataMap[T];

export type StartTurn = { type: 'StartTurn' } & Data<'TurnStarted'>;
/** `now` is ISO 8601 from the caller's clock; the domain never reads one. */
export type TakeLease = { type: 'TakeLease'; workerId: string; now: string; leaseMs: number };
export type RenewLease = { type: 'RenewLease'; workerId: string; generation: number; now: string; leaseMs: number };
/** Lets another worker take over at once (SIGTERM): recorded as a renewal that ends now. */
export type ReleaseLease = { type: 'ReleaseLease'; workerId: string; generation: number; now: string };
export type CommitStep = { type: 'CommitStep'; generation: number } & Data<'ModelStepCommitted'>;
export type StartToolCall = { type: 'StartToolCall'; generation: number; callId: string; attempt: number };
/** No generation: async completions are appended by whoever finished the work. */
export type CompleteToolCall = { type: 'CompleteToolCall' } & Data<'ToolCallCompleted'>;
export type RecordToolOutcomeUnknown = {
  type: 'RecordToolOutcomeUnknown';
  generation: number;
} & Data<'ToolCallOutcomeUnknown'>;
/** A call the person declined: recorded as an error result without ever starting it. */
export type DeclineToolCall = { type: 'DeclineToolCall'; generation: number; callId: string; message: string };
export type WaitTurn = { type: 'WaitTurn'; generation: number; on: WaitTarget };
export type ResumeTurn = { type: 'ResumeTurn' } & Data<'TurnResumed'>;
export type CompleteTurn = { type: 'CompleteTurn'; generation: number } & Data<'TurnCompleted'>;
/** Without a generation (the watchdog giving up on a turn) it fails whatever holds the lease. */
export type FailTurn = { type: 'FailTurn'; generation?: number } & Data<'TurnFailed'>;
export type CancelTurn = { type: 'CancelTurn' } & Data<'TurnCancelled'>;

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
  | FailTurn
  | CancelTurn;
