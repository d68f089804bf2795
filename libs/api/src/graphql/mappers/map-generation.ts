import type { AccountView, GenerationJobRecord, LedgerEntryView } from '@lomo/generation';
import type { Account, GenerationJob, LedgerEntry } from '../types/generation.types';

export function mapGenerationJob(view: GenerationJobRecord): GenerationJob {
  return {
    id: view.jobId,
    taskId: view.taskId,
    callId: view.callId,
    provider: view.provider,
    kind: view.kind,
    operation: view.operation,
    phase: view.phase,
    progress: view.progress,
    quote: { ...view.quote },
    chargedMinor: view.chargedMinor,
    refundedMinor: view.refundedMinor,
    artifactId: view.artifactId,
    failure: view.failure === null ? null : { ...view.failure },
    requestedAt: view.requestedAt,
    updatedAt: view.updatedAt,
  };
}

/** The account before its stream has any event: nothing approved, nothing spent. */
export const emptyAccount = (): Account => ({
  currencies: [],
  daily: null,
  perCallAutoApproveMinor: null,
  pendingQuoteIds: [],
});

export function mapAccount(view: AccountView): Account {
  return {
    currencies: view.currencies.map((c) => ({
      currency: c.currency,
      approvedBudgetMinor: c.approvedBudgetMinor,
      reservedMinor: c.reservedMinor,
      spentMinor: c.spentMinor,
      refundedMinor: c.refundedMinor,
      availableMinor: c.availableMinor,
    })),
    daily: view.daily === null ? null : { ...view.daily },
    perCallAutoApproveMinor: view.limits?.perCallAutoApproveMinor ?? null,
    pendingQuoteIds: [...view.pendingQuoteIds],
  };
}

export const mapLedgerEntry = (view: LedgerEntryView): LedgerEntry => ({
  id: view.entryId,
  kind: view.kind,
  jobId: view.jobId,
  amountMinor: view.amountMinor,
  currency: view.currency,
  at: view.at,
});
