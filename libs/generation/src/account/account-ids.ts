import { deterministicUuid } from '@lomo/contracts';

/** The four ledger entries a job can have on the account stream, at most one of each. */
export const ledgerEntryKinds = ['reservation', 'release', 'charge', 'refund'] as const;
export type LedgerEntryKind = (typeof ledgerEntryKinds)[number];

/**
 * Ledger entry ids derive from (jobId, kind): a repeated write of the same entry (a retried
 * handler, a stale worker, a duplicate callback) carries the same id and folds as a no-op, and
 * the job stream's record of a charge or refund names the same entry.
 */
export const ledgerEntryId = (jobId: string, kind: LedgerEntryKind): string =>
  deterministicUuid('lomo.account.entry', jobId, kind);

/** One quote per job: a retried tool call quotes under the same id. */
export const quoteIdFor = (jobId: string): string => deterministicUuid('lomo.account.quote', jobId);
