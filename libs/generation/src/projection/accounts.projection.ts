import type { KnownEvent, ProjectionDefinition } from '@lomo/read-models';
import { accountEventTypes, type AccountEvent } from '../account/account-events';
import { evolveAccount } from '../account/account-evolve';
import { initialAccountState } from '../account/account-state';
import {
  ACCOUNTS,
  ACCOUNT_LEDGER,
  accountStateOf,
  storedAccountState,
  type AccountDocument,
  type LedgerEntryDocument,
  type AccountLedgerKind,
} from './generation-documents';

const fromAccount = { owner: 'stream', category: 'account' } as const;
const workspaceOf = (event: KnownEvent) => event.metadata.streamId.slice('account-'.length);
const accountTypes: ReadonlySet<string> = new Set(accountEventTypes);

/** The stored event as the account decider folds it: who recorded it decides whether an approval counts. */
function asAccountEvent(event: KnownEvent): AccountEvent | undefined {
  if (!accountTypes.has(event.type)) return undefined;
  return { type: event.type, data: event.data, recordedBy: event.metadata.actor } as AccountEvent;
}

// ---------------------------------------------------------------------------------------------
// accounts

const blankAccount = (id: string, event: KnownEvent): AccountDocument => ({
  _id: id,
  workspaceId: event.metadata.workspaceId,
  _streams: {},
  state: storedAccountState(initialAccountState()),
  updatedAt: null,
});

function evolveAccountDocument(doc: AccountDocument, event: KnownEvent): AccountDocument {
  const accountEvent = asAccountEvent(event);
  if (accountEvent === undefined) return doc;
  const before = accountStateOf(doc.state);
  const state = evolveAccount(before, accountEvent);
  return state === before ? doc : { ...doc, state: storedAccountState(state), updatedAt: event.metadata.occurredAt };
}

export const accountsProjection: ProjectionDefinition<AccountDocument> = {
  name: ACCOUNTS,
  version: 1,
  categories: ['account'],
  handles: accountEventTypes,
  indexes: [],
  ownership: { state: fromAccount, updatedAt: fromAccount },
  documentIds: (event) => [workspaceOf(event)],
  blank: blankAccount,
  evolve: evolveAccountDocument,
};

// ---------------------------------------------------------------------------------------------
// account_ledger

/** The ledger document an event writes: entries by their entry id, approvals by quote or budget id. */
function ledgerIds(event: KnownEvent): readonly string[] {
  switch (event.type) {
    case 'QuoteIssued':
      return [event.data.quote.quoteId];
    case 'QuoteApproved':
      return [event.data.quoteId];
    case 'BudgetApproved':
      return [event.data.budgetId];
    case 'FundsReserved':
    case 'ReservationReleased':
    case 'JobCharged':
    case 'JobRefunded':
      return [event.data.entryId];
    default:
      return [];
  }
}

const blankEntry = (id: string, event: KnownEvent): LedgerEntryDocument => ({
  _id: id,
  workspaceId: event.metadata.workspaceId,
  _streams: {},
  listed: false,
  entryId: id,
  jobId: null,
  kind: null,
  amountMinor: 0,
  currency: null,
  at: null,
  position: 0,
});

const entry = (
  doc: LedgerEntryDocument,
  event: KnownEvent,
  fields: { kind: AccountLedgerKind; jobId: string | null; amountMinor: number; currency: string; at: string },
): LedgerEntryDocument => ({ ...doc, listed: true, ...fields, position: event.metadata.revision });

/**
 * An entry is written once: a repeat with the same id (a stale writer, a retried handler) is the
 * same entry. An approval or budget the agent recorded authorizes nothing (the account decider
 * ignores it, evolveAccount), so it is no ledger entry either.
 */
function evolveEntry(doc: LedgerEntryDocument, event: KnownEvent): LedgerEntryDocument {
  if (doc.listed) return doc;
  const byAgent = event.metadata.actor.kind === 'agent';
  switch (event.type) {
    case 'QuoteIssued': {
      // Kept unlisted: the approval that follows has only the quote id, the job and price are here.
      const { quote, jobId } = event.data;
      return { ...doc, jobId, amountMinor: quote.amountMinor, currency: quote.currency };
    }
    case 'QuoteApproved':
      if (byAgent || doc.currency === null) return doc;
      return entry(doc, event, {
        kind: 'quote_approved',
        jobId: doc.jobId,
        amountMinor: doc.amountMinor,
        currency: doc.currency,
        at: event.data.approvedAt,
      });
    case 'BudgetApproved': {
      if (byAgent) return doc;
      const { amountMinor, currency, approvedAt } = event.data;
      return entry(doc, event, { kind: 'budget_approved', jobId: null, amountMinor, currency, at: approvedAt });
    }
    case 'FundsReserved': {
      const { jobId, amountMinor, currency, reservedAt } = event.data;
      return entry(doc, event, { kind: 'reservation', jobId, amountMinor, currency, at: reservedAt });
    }
    case 'ReservationReleased': {
      const { jobId, amountMinor, currency, releasedAt } = event.data;
      return entry(doc, event, { kind: 'release', jobId, amountMinor, currency, at: releasedAt });
    }
    case 'JobCharged': {
      const { jobId, amountMinor, currency, chargedAt } = event.data;
      return entry(doc, event, { kind: 'charge', jobId, amountMinor, currency, at: chargedAt });
    }
    case 'JobRefunded': {
      const { jobId, amountMinor, currency, refundedAt } = event.data;
      return entry(doc, event, { kind: 'refund', jobId, amountMinor, currency, at: refundedAt });
    }
    default:
      return doc;
  }
}

export const accountLedgerProjection: ProjectionDefinition<LedgerEntryDocument> = {
  name: ACCOUNT_LEDGER,
  version: 1,
  categories: ['account'],
  handles: [
    'QuoteIssued',
    'QuoteApproved',
    'BudgetApproved',
    'FundsReserved',
    'ReservationReleased',
    'JobCharged',
    'JobRefunded',
  ],
  indexes: [{ fields: { workspaceId: 1, listed: 1, position: 1 } }],
  ownership: {
    listed: fromAccount,
    entryId: fromAccount,
    jobId: fromAccount,
    kind: fromAccount,
    amountMinor: fromAccount,
    currency: fromAccount,
    at: fromAccount,
    position: fromAccount,
  },
  documentIds: ledgerIds,
  blank: blankEntry,
  evolve: evolveEntry,
};
