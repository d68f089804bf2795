import { streams, type Actor } from '@lomo/contracts';
import { eraseProjectionType } from '@lomo/read-models';
import { accountSummary } from '../account/account-queries';
import type { AccountCommand } from '../account/account-commands';
import type { AccountEvent } from '../account/account-events';
import { ledgerEntryId } from '../account/account-ids';
import {
  accountHistory,
  at,
  budgetOf,
  foldAccount,
  genIds,
  issueQuoteOf,
  jobOf,
  limitsOf,
  callOf,
  person,
  requestOf,
} from '../testing/generation.fixtures';
import { accountStateOf, type AccountDocument, type LedgerEntryDocument } from './generation-documents';
import { accountLedgerProjection, accountsProjection } from './accounts.projection';
import { project, storedEvents } from './testing/project-events';

const small = requestOf({ callId: callOf(1, 0), amountMinor: 300 });
const large = requestOf({ callId: callOf(1, 1), amountMinor: 2_000 });
const smallJob = jobOf(small.callId);
const largeJob = jobOf(large.callId);
const expires = at(3600);

/** Limits, a budget, one auto-approved job charged, one person-approved job charged then refunded. */
const commands: AccountCommand[] = [
  limitsOf(500, 1_000),
  budgetOf(10_000),
  issueQuoteOf(small),
  { type: 'ReserveFunds', jobId: smallJob, quoteId: small.quote.quoteId, at: at(1), expiresAt: expires },
  { type: 'ChargeJob', jobId: smallJob, at: at(2) },
  issueQuoteOf(large),
  {
    type: 'ApproveQuote',
    quoteId: large.quote.quoteId,
    approvedBy: 'u1',
    checkpointId: genIds.checkpoint,
    by: person,
    at: at(3),
  },
  { type: 'ReserveFunds', jobId: largeJob, quoteId: large.quote.quoteId, at: at(4), expiresAt: expires },
  { type: 'ChargeJob', jobId: largeJob, at: at(5) },
  { type: 'RefundJob', jobId: largeJob, reason: 'upstream_failed', at: at(6) },
];

const stored = (events: AccountEvent[], actor: Actor = person) =>
  storedEvents({ streamId: streams.account(genIds.workspace), workspaceId: genIds.workspace, events, actor });

describe('accounts projection', () => {
  it('folds the account stream with the decider’s evolve: the summary equals the decider’s for any day', async () => {
    const events = accountHistory(...commands);
    const docs = await project(eraseProjectionType(accountsProjection), stored(events));
    const doc = docs.get(genIds.workspace) as AccountDocument;
    const day = '2026-11-30';
    expect(accountSummary(accountStateOf(doc.state), day)).toEqual(accountSummary(foldAccount(events), day));
    expect(accountSummary(accountStateOf(doc.state), day)).toMatchObject({
      currencies: [
        {
          currency: 'USD',
          approvedBudgetMinor: 10_000,
          reservedMinor: 0,
          chargedMinor: 2_300,
          refundedMinor: 2_000,
          spentMinor: 300,
        },
      ],
      daily: { day, currency: 'USD', usedMinor: 300, limitMinor: 1_000, remainingMinor: 700 },
    });
  });

  it('an approval the agent recorded authorizes nothing here either', async () => {
    const events = accountHistory(issueQuoteOf(large));
    const approval: AccountEvent = {
      type: 'QuoteApproved',
      data: { quoteId: large.quote.quoteId, approvedBy: 'u1', approvedAt: at(1) },
      recordedBy: { kind: 'agent' },
    };
    const docs = await project(eraseProjectionType(accountsProjection), stored([...events, approval]));
    const state = accountStateOf((docs.get(genIds.workspace) as AccountDocument).state);
    expect(state.quotes[large.quote.quoteId].approval).toBeNull();
    expect(accountSummary(state, '2026-11-30').pendingQuoteIds).toEqual([large.quote.quoteId]);
  });
});

describe('account_ledger projection', () => {
  const ledger = async (events: readonly ReturnType<typeof stored>[number][]) =>
    [...(await project(eraseProjectionType(accountLedgerProjection), events)).values()]
      .map((d) => d as LedgerEntryDocument)
      .filter((d) => d.listed)
      .sort((a, b) => a.position - b.position)
      .map(({ kind, jobId, amountMinor, currency, entryId, position }) => ({
        kind,
        jobId,
        amountMinor,
        currency,
        entryId,
        position,
      }));

  it('one entry per reservation, release, charge, refund, approved quote and budget, in stream order', async () => {
    const entries = await ledger(stored(accountHistory(...commands)));
    expect(entries).toEqual([
      {
        kind: 'budget_approved',
        jobId: null,
        amountMinor: 10_000,
        currency: 'USD',
        entryId: genIds.budget,
        position: 1,
      },
      {
        kind: 'reservation',
        jobId: smallJob,
        amountMinor: 300,
        currency: 'USD',
        entryId: ledgerEntryId(smallJob, 'reservation'),
        position: 3,
      },
      {
        kind: 'charge',
        jobId: smallJob,
        amountMinor: 300,
        currency: 'USD',
        entryId: ledgerEntryId(smallJob, 'charge'),
        position: 4,
      },
      {
        kind: 'quote_approved',
        jobId: largeJob,
        amountMinor: 2_000,
        currency: 'USD',
        entryId: large.quote.quoteId,
        position: 6,
      },
      {
        kind: 'reservation',
        jobId: largeJob,
        amountMinor: 2_000,
        currency: 'USD',
        entryId: ledgerEntryId(largeJob, 'reservation'),
        position: 7,
      },
      {
        kind: 'charge',
        jobId: largeJob,
        amountMinor: 2_000,
        currency: 'USD',
        entryId: ledgerEntryId(largeJob, 'charge'),
        position: 8,
      },
      {
        kind: 'refund',
        jobId: largeJob,
        amountMinor: 2_000,
        currency: 'USD',
        entryId: ledgerEntryId(largeJob, 'refund'),
        position: 9,
      },
    ]);
  });

  it('a release is an entry; a repeated entry (same id, appended again by a stale writer) is listed once, at its first position', async () => {
    const events = accountHistory(
      limitsOf(500, 1_000),
      budgetOf(10_000),
      issueQuoteOf(small),
      { type: 'ReserveFunds', jobId: smallJob, quoteId: small.quote.quoteId, at: at(1), expiresAt: expires },
      { type: 'ReleaseReservation', jobId: smallJob, reason: 'job_failed', at: at(2) },
    );
    const entries = await ledger(stored([...events, events[events.length - 1]]));
    expect(entries.map((e) => [e.kind, e.position])).toEqual([
      ['budget_approved', 1],
      ['reservation', 3],
      ['release', 4],
    ]);
  });

  it('an approval or a budget the agent recorded is no entry', async () => {
    const events = stored(accountHistory(issueQuoteOf(large), budgetOf(5_000)), { kind: 'agent' });
    expect(await ledger(events)).toEqual([]);
  });
});
