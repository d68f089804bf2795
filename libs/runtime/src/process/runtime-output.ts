import type { TaskEvent, TurnEvent } from '@lomo/domain';

/** Why an append is made; logs, fault points and the worker's follow-up key on it. */
export type AppendIntent =
  | 'start-turn'
  | 'take-lease'
  | 'resume'
  | 'claim'
  | 'commit'
  | 'record-result'
  | 'renew-lease'
  | 'release-lease'
  | 'start-call'
  | 'retry-call'
  | 'decline-call'
  | 'record-unknown'
  | 'open-checkpoint'
  | 'wait'
  | 'complete'
  | 'fail'
  | 'close'
  | 'compress-history';

export type TurnAppend = {
  kind: 'append';
  stream: 'turn';
  intent: AppendIntent;
  events: TurnEvent[];
  expected: number | 'no_stream';
  /** The call the append is about (start, retry, result). */
  callId?: string;
};

export type TaskAppend = {
  kind: 'append';
  stream: 'task';
  intent: AppendIntent;
  events: TaskEvent[];
  expected: number;
  /** Ids derived from a call id, so a stale worker's duplicate lands on the same event. */
  eventIds?: string[];
};

export type FinishReason =
  'completed' | 'failed' | 'cancelled' | 'waiting' | 'held-elsewhere' | 'lease-lost' | 'released' | 'not-runnable';

/**
 * What the coordinating process decides next. Appends carry the exact events and the revision
 * they were decided at; the long-running work (model, tool) is named, and the worker reports
 * back by appending its outcome.
 */
export type RuntimeOutput =
  | TurnAppend
  | TaskAppend
  | { kind: 'callModel'; step: number; claimedItemIds: readonly string[] }
  | { kind: 'runTool'; callId: string }
  | { kind: 'finish'; reason: FinishReason };
