import type { AccountSummary } from '../account/account-queries';
import type { JobPhase, AccountLedgerKind } from './generation-documents';

/**
 * The generation read model (projections generation_jobs, accounts, account_ledger; rebuildable
 * like the others). Every read but `activeJobs` is scoped by workspace: another workspace's job
 * reads as absent, exactly like one that does not exist.
 */
export const GENERATION_READ_MODEL = Symbol('GENERATION_READ_MODEL');

export interface GenerationJobRecord {
  jobId: string;
  workspaceId: string;
  taskId: string;
  turnId: string;
  callId: string;
  provider: string;
  kind: string;
  operation: string;
  phase: JobPhase;
  progress: number;
  quote: { quoteId: string; amountMinor: number; currency: string; units: number; unit: string };
  /** Set while (and after) a person was asked to approve the quote. */
  approval: { quoteId: string; checkpointId: string; refusal: string; askedAt: string } | null;
  chargedMinor: number | null;
  refundedMinor: number | null;
  artifactId: string | null;
  failure: { reason: string; message: string } | null;
  upstreamJobId: string | null;
  requestedAt: string;
  submittedAt: string | null;
  completedAt: string | null;
  failedAt: string | null;
  updatedAt: string;
  /** The job stream's revision this view reflects: a subscription sends each one once. */
  revision: number;
}

/** The account as the decider folds it, summarized for the workspace's current day. */
export interface AccountView extends AccountSummary {
  workspaceId: string;
}

export interface LedgerEntryView {
  entryId: string;
  workspaceId: string;
  jobId: string | null;
  kind: AccountLedgerKind;
  amountMinor: number;
  currency: string;
  at: string;
  /** The entry's revision on the account stream. */
  position: number;
}

export interface LedgerPage {
  items: LedgerEntryView[];
  /** The store's cursor after the last item (undefined for an empty page). */
  endCursor?: string;
  hasNextPage: boolean;
}

export interface GenerationReadModel {
  /** The task's jobs, oldest request first. */
  jobsOfTask(workspaceId: string, taskId: string): Promise<GenerationJobRecord[]>;
  job(workspaceId: string, jobId: string): Promise<GenerationJobRecord | undefined>;
  /**
   * Jobs not finished yet (requested, awaiting approval, submitted) of every workspace, oldest
   * first: the generation worker's start-up and compensation polls. Not for the API.
   */
  activeJobs(limit: number): Promise<GenerationJobRecord[]>;
  /**
   * Jobs that ended at or after `since` (ISO 8601), across workspaces: the generation service
   * concludes them again on start (a crash between a job's end and its tool call's result).
   */
  recentlyEnded(since: string, limit: number): Promise<GenerationJobRecord[]>;
  /** Undefined before the workspace's account stream has an event. */
  account(workspaceId: string): Promise<AccountView | undefined>;
  /** Ledger entries oldest first; `after` is an `endCursor` of an earlier page. */
  ledger(workspaceId: string, first: number, after?: string): Promise<LedgerPage>;
}
