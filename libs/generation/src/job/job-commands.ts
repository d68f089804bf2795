import type {
  GenerationFailureReason,
  GenerationParamsData,
  GenerationQuoteData,
  MediaKindData,
  ProgressSource,
  ProgressStatus,
  ResultBlobData,
} from './job-events';

// Commands spell out their own fields (as libs/workspace/src/artifact/artifact-commands.ts does), so
// a change of an event's schema shows up in the decider that maps a command to it. Time arrives
// inside each command (`at`, ISO 8601): the decider reads no clock.

/**
 * The tool asks for a paid job. The job id is derived from (workspaceId, callId) by the caller
 * (./job-ids.ts) to pick the stream; a repeat of the request is a no-op.
 */
export type RequestGeneration = {
  type: 'RequestGeneration';
  workspaceId: string;
  taskId: string;
  turnId: string;
  /** The idempotency key: `{turnId}:{step}:{index}`, without the execution generation. */
  callId: string;
  provider: string;
  kind: MediaKindData;
  operation: string;
  params: GenerationParamsData;
  quote: GenerationQuoteData;
  at: string;
};

/**
 * The account refused to auto-approve the quote: the person is asked at a checkpoint. Only a
 * job that has not been submitted waits for approval; asking again is a no-op.
 */
export type AskApproval = { type: 'AskApproval'; quoteId: string; checkpointId: string; refusal: string; at: string };

/** The worker about to send the request records it first; a repeat is a no-op (someone else sends). */
export type StartSubmission = { type: 'StartSubmission'; at: string };

/** The upstream answered the submit with its job id: recorded once. */
export type RecordSubmission = { type: 'RecordSubmission'; upstreamJobId: string; at: string };

/** A progress report from a callback or a poll, after shouldPersistProgress let it through. */
export type RecordProgress = {
  type: 'RecordProgress';
  progress: number;
  status: ProgressStatus;
  source: ProgressSource;
  callbackEventId?: string;
  at: string;
};

/** The result is stored in the BlobStore and the artefact made of it has this id. */
export type CompleteGeneration = {
  type: 'CompleteGeneration';
  result: ResultBlobData;
  artifactId: string;
  at: string;
};

export type FailGeneration = {
  type: 'FailGeneration';
  reason: GenerationFailureReason;
  message: string;
  upstreamCode?: string;
  at: string;
};

/** The job's record of the `JobCharged` entry the account stream holds for it. */
export type RecordCharge = {
  type: 'RecordCharge';
  entryId: string;
  amountMinor: number;
  currency: string;
  at: string;
};

/** The job's record of the `JobRefunded` entry the account stream holds for it. */
export type RecordRefund = {
  type: 'RecordRefund';
  entryId: string;
  amountMinor: number;
  currency: string;
  reason: GenerationFailureReason;
  at: string;
};

export type GenerationJobCommand =
  | RequestGeneration
  | AskApproval
  | StartSubmission
  | RecordSubmission
  | RecordProgress
  | CompleteGeneration
  | FailGeneration
  | RecordCharge
  | RecordRefund;
