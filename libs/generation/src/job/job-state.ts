import type {
  GenerationFailureReason,
  GenerationParamsData,
  GenerationQuoteData,
  MediaKindData,
  ProgressSource,
  ProgressStatus,
  ResultBlobData,
} from './job-events';

/** What the request fixed for good: the order and its price. */
export interface JobFacts {
  jobId: string;
  workspaceId: string;
  taskId: string;
  turnId: string;
  callId: string;
  provider: string;
  kind: MediaKindData;
  operation: string;
  params: GenerationParamsData;
  quote: GenerationQuoteData;
  requestedAt: string;
}

/** One ledger entry as the job records it (the account stream is authoritative). */
export interface LedgerView {
  entryId: string;
  amountMinor: number;
  currency: string;
  at: string;
}

/** The job's view of its money: set once each, refund only after a charge. */
export interface JobMoney {
  charge: LedgerView | null;
  refund: LedgerView | null;
}

export interface LastProgress {
  progress: number;
  status: ProgressStatus;
  source: ProgressSource;
  at: string;
}

/** Requested: no upstream id yet (the submit is in flight, or it crashed before recording one). */
export interface RequestedJob extends JobFacts, JobMoney {
  status: 'requested';
  /** Set when the quote could not be auto-approved and a person was asked (a checkpoint is open). */
  approvalAsked: { quoteId: string; checkpointId: string; refusal: string; askedAt: string } | null;
  /** When a worker recorded that it sends the request; null: nothing was sent yet. */
  submissionStartedAt: string | null;
}

export interface SubmittedJob extends JobFacts, JobMoney {
  status: 'submitted';
  upstreamJobId: string;
  submittedAt: string;
  lastProgress: LastProgress | null;
  /** Callback deliveries already recorded, so a redelivery is a no-op. */
  callbackEventIds: ReadonlySet<string>;
}

/** Final. */
export interface CompletedJob extends JobFacts, JobMoney {
  status: 'completed';
  upstreamJobId: string;
  result: ResultBlobData;
  artifactId: string;
  completedAt: string;
  lastProgress: LastProgress | null;
}

/** Final. `upstreamJobId` is null when it failed before the upstream answered. */
export interface FailedJob extends JobFacts, JobMoney {
  status: 'failed';
  /** Whether the paid request may have reached the upstream (its submission had started). */
  submissionStarted: boolean;
  upstreamJobId: string | null;
  reason: GenerationFailureReason;
  message: string;
  failedAt: string;
  lastProgress: LastProgress | null;
}

export type ExistingJob = RequestedJob | SubmittedJob | CompletedJob | FailedJob;
export type GenerationJobState = { status: 'none' } | ExistingJob;
export type GenerationJobStatus = GenerationJobState['status'];

export const initialGenerationJobState = (): GenerationJobState => ({ status: 'none' });
