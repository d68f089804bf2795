import type { JsonValue, ProjectionDocument } from '@lomo/read-models';
import type { AccountState } from '../account/account-state';

export const GENERATION_JOBS = 'generation_jobs';
export const ACCOUNTS = 'accounts';
export const ACCOUNT_LEDGER = 'account_ledger';

/**
 * Where a job stands as people see it. `awaiting_approval`: a person was asked to approve the
 * quote and nothing was sent yet; it stays so until the job is submitted or fails (the approval
 * itself is on the account stream, which this document does not read).
 */
export type JobPhase = 'awaiting_approval' | 'requested' | 'submitted' | 'completed' | 'failed';

export const activePhases: readonly JobPhase[] = ['requested', 'awaiting_approval', 'submitted'];

/** `generation_jobs`: one document per job (`_id` = jobId), every field from its `generation-` stream. */
export type GenerationJobDocument = ProjectionDocument & {
  /** GenerationRequested applied; readers skip the document until then. */
  created: boolean;
  jobId: string;
  taskId: string | null;
  turnId: string | null;
  callId: string | null;
  provider: string | null;
  kind: string | null;
  operation: string | null;
  phase: JobPhase | null;
  /** The latest accepted progress 0..100; 100 once completed. */
  progress: number;
  /** The status of the latest accepted progress report (progress rises, then queued → processing). */
  lastStatus: 'queued' | 'processing' | null;
  quote: { quoteId: string; amountMinor: number; currency: string; units: number; unit: string } | null;
  approval: { quoteId: string; checkpointId: string; refusal: string; askedAt: string } | null;
  chargedMinor: number | null;
  refundedMinor: number | null;
  artifactId: string | null;
  failure: { reason: string; message: string } | null;
  upstreamJobId: string | null;
  requestedAt: string | null;
  submittedAt: string | null;
  completedAt: string | null;
  failedAt: string | null;
  updatedAt: string | null;
};

/**
 * `accounts`: one document per workspace (`_id` = workspaceId), its `account-` stream folded with
 * the account decider's own evolve, so the read side can never disagree with what the decider
 * enforces. The summary for "today" is computed when read (the day depends on the reader's clock,
 * which a projection must not read). It holds one entry per job, like the decider's state.
 */
export type AccountDocument = ProjectionDocument & {
  state: StoredAccountState;
  updatedAt: string | null;
};

/** AccountState as a document holds it: plain records, strings, numbers and nulls (JSON already). */
export type StoredAccountState = { [field: string]: JsonValue };

// AccountState is declared with interfaces, which TypeScript does not see as JSON; its values are.
export const storedAccountState = (state: AccountState): StoredAccountState => state as unknown as StoredAccountState;
export const accountStateOf = (stored: StoredAccountState): AccountState => stored as unknown as AccountState;

export type AccountLedgerKind = 'reservation' | 'release' | 'charge' | 'refund' | 'quote_approved' | 'budget_approved';

/**
 * `account_ledger`: one document per ledger entry (`_id` = entry id; the quote id for an
 * approval, the budget id for a budget). `position` is the entry's revision on the account
 * stream: a total order within the workspace, for paging.
 */
export type LedgerEntryDocument = ProjectionDocument & {
  /** The entry happened (a quote issued but not approved yet is kept unlisted, for its job id). */
  listed: boolean;
  entryId: string;
  jobId: string | null;
  kind: AccountLedgerKind | null;
  amountMinor: number;
  currency: string | null;
  at: string | null;
  position: number;
};
