import { LomoError } from '@lomo/contracts';
import { deciderSpec } from '@lomo/testing';
import {
  accountHistory,
  at,
  budgetOf,
  callOf,
  foldAccount,
  issueQuoteOf,
  jobOf,
  limitsOf,
  person,
  requestOf,
} from '../testing';
import type { AccountCommand, ReserveFunds } from './account-commands';
import { accountDecider } from './account-decider';
import { PaymentNotAuthorizedError } from './account-errors';
import type { AccountEvent } from './account-events';
import { ledgerEntryId } from './account-ids';
import { dailyAutoApprovedUse } from './account-queries';

const { given } = deciderSpec(accountDecider);

const requestN = (n: number, amountMinor = 400) => requestOf({ callId: callOf(1, n), amountMinor });
const reserve = (n: number, seconds = 0): ReserveFunds => ({
  type: 'ReserveFunds',
  jobId: jobOf(callOf(1, n)),
  quoteId: requestN(n).quote.quoteId,
  at: at(seconds),
  expiresAt: at(seconds + 600),
});
const approveQuote = (n: number): AccountCommand => ({
  type: 'ApproveQuote',
  quoteId: requestN(n).quote.quoteId,
  approvedBy: 'u1',
  by: person,
  at: at(),
});
const charge = (n: number, seconds = 1): AccountCommand => ({
  type: 'ChargeJob',
  jobId: jobOf(callOf(1, n)),
  at: at(seconds),
});
const refund = (n: number, seconds = 30): AccountCommand => ({
  type: 'RefundJob',
  jobId: jobOf(callOf(1, n)),
  reason: 'upstream_failed',
  at: at(seconds),
});
const release = (n: number, seconds = 30, reason: 'job_failed' | 'expired' = 'job_failed'): AccountCommand => ({
  type: 'ReleaseReservation',
  jobId: jobOf(callOf(1, n)),
  reason,
  at: at(seconds),
});

/** A budget of 1000, auto-approve up to 500 a call and 800 a day, and the quote of call 0 (400). */
const funded = (...more: AccountCommand[]) =>
  accountHistory(budgetOf(1000), limitsOf(500, 800), issueQuoteOf(requestN(0)), ...more);
const reserved = (...more: AccountCommand[]) => funded(reserve(0), ...more);

const reservedEvent = (authorization: 'quote_approved' | 'auto_approved', day = '2026-11-30'): AccountEvent => ({
  type: 'FundsReserved',
  data: {
    entryId: ledgerEntryId(jobOf(), 'reservation'),
    jobId: jobOf(),
    quoteId: requestN(0).quote.quoteId,
    amountMinor: 400,
    currency: 'USD',
    authorization,
    day,
    reservedAt: at(),
    expiresAt: at(600),
  },
});

describe('account: reservations against the budget, the per-call and the daily limit', () => {
  it('a paid call without an approved quote or limits is refused with a typed error carrying the quote, and no events', () => {
    const state = foldAccount(accountHistory(budgetOf(1000), issueQuoteOf(requestN(0))));
    let thrown: unknown;
    try {
      accountDecider.decide(reserve(0), state);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(PaymentNotAuthorizedError);
    expect(thrown).toBeInstanceOf(LomoError);
    expect(thrown).toMatchObject({
      code: 'PAYMENT_QUOTE_NOT_APPROVED',
      retriable: false,
      details: { quote: { quoteId: requestN(0).quote.quoteId, amountMinor: 400, currency: 'USD', jobId: jobOf() } },
    });
  });

  it('a quote above the per-call auto-approve limit needs a person’s approval; approved, it reserves', () => {
    const big = requestN(0, 600);
    const base = accountHistory(budgetOf(1000), limitsOf(500, 800), issueQuoteOf(big));
    given(base).when(reserve(0)).thenThrows('PAYMENT_QUOTE_NOT_APPROVED');
    const approved = [...base, ...accountDecider.decide(approveQuote(0), foldAccount(base))];
    const events = accountDecider.decide(reserve(0), foldAccount(approved));
    expect(events).toMatchObject([
      { type: 'FundsReserved', data: { amountMinor: 600, authorization: 'quote_approved' } },
    ]);
  });

  it('a quote within the per-call limit is auto-approved and counts towards the day', () => {
    given(funded())
      .when(reserve(0))
      .then([reservedEvent('auto_approved')]);
    expect(dailyAutoApprovedUse(foldAccount(reserved()), 'USD', '2026-11-30')).toBe(400);
  });

  it('the daily auto-approve limit is refused past its total for the day', () => {
    const two = accountHistory(
      budgetOf(5000),
      limitsOf(500, 800),
      ...[0, 1, 2].map((n) => issueQuoteOf(requestN(n))),
      reserve(0),
      reserve(1),
    );
    given(two).when(reserve(2)).thenThrows('PAYMENT_DAILY_LIMIT_EXCEEDED');
  });

  it('the daily limit’s day is the workspace’s day in its time zone, from the reservation time', () => {
    // 2026-11-30T15:30Z is 23:30 in Shanghai; 16:30Z is already 1 December there, still 30 November in UTC.
    const lateEvening = (Date.parse('2026-11-30T15:30:00.000Z') - Date.parse(at())) / 1000;
    const afterMidnight = (Date.parse('2026-11-30T16:30:00.000Z') - Date.parse(at())) / 1000;
    const setup = (timeZone: string) =>
      accountHistory(
        budgetOf(5000),
        limitsOf(500, 800, timeZone),
        ...[0, 1, 2].map((n) => issueQuoteOf(requestN(n))),
        reserve(0, lateEvening),
        reserve(1, lateEvening),
      );
    const shanghai = accountDecider.decide(reserve(2, afterMidnight), foldAccount(setup('Asia/Shanghai')));
    expect(shanghai).toMatchObject([
      { type: 'FundsReserved', data: { day: '2026-12-01', authorization: 'auto_approved' } },
    ]);
    expect(foldAccount(setup('Asia/Shanghai')).jobs[jobOf(callOf(1, 0))].day).toBe('2026-11-30');
    given(setup('UTC')).when(reserve(2, afterMidnight)).thenThrows('PAYMENT_DAILY_LIMIT_EXCEEDED');
  });

  it('spent never exceeds the approved budget: a quote above what is left is refused, even when a person approved it', () => {
    const history = accountHistory(
      budgetOf(1000),
      limitsOf(500, 5000),
      ...[0, 1, 2].map((n) => issueQuoteOf(requestN(n))),
      reserve(0),
      charge(0),
      reserve(1),
      approveQuote(2),
    );
    // 400 spent + 400 held of 1000: 200 left for a 400 quote.
    given(history).when(reserve(2)).thenThrows('PAYMENT_BUDGET_EXCEEDED');
    given(accountHistory(issueQuoteOf(requestN(0)), approveQuote(0)))
      .when(reserve(0))
      .thenThrows('PAYMENT_BUDGET_EXCEEDED');
  });

  it('a repeat reservation for the job is a no-op []', () => {
    given(reserved()).when(reserve(0, 5)).then([]);
  });

  it('a reservation needs the issued quote of that job', () => {
    given(accountHistory(budgetOf(1000), limitsOf(500, 800)))
      .when(reserve(0))
      .thenThrows('ACCOUNT_QUOTE_NOT_FOUND');
    given(funded())
      .when({ ...reserve(0), jobId: jobOf(callOf(1, 9)) })
      .thenThrows('ACCOUNT_QUOTE_MISMATCH');
  });
});

describe('account: charges on submit, refunds on failure, releases before submit', () => {
  it('charged on submit: the reservation becomes a charge of the quoted amount', () => {
    given(reserved())
      .when(charge(0))
      .then([
        {
          type: 'JobCharged',
          data: {
            entryId: ledgerEntryId(jobOf(), 'charge'),
            jobId: jobOf(),
            amountMinor: 400,
            currency: 'USD',
            chargedAt: at(1),
          },
        },
      ]);
    const totals = foldAccount(reserved(charge(0))).totals.USD;
    expect(totals).toMatchObject({ reservedMinor: 0, chargedMinor: 400 });
  });

  it('a second charge does nothing []', () => {
    given(reserved(charge(0)))
      .when(charge(0, 5))
      .then([]);
    given(reserved(charge(0), refund(0)))
      .when(charge(0, 50))
      .then([]);
  });

  it('a charge without a reservation is refused (PAYMENT_NO_RESERVATION); after a release it is refused too', () => {
    given(funded()).when(charge(0)).thenThrows('PAYMENT_NO_RESERVATION');
    given(reserved(release(0)))
      .when(charge(0, 40))
      .thenThrows('ACCOUNT_RESERVATION_RELEASED');
  });

  it('a refund without a charge does nothing []', () => {
    given(funded()).when(refund(0)).then([]);
    given(reserved()).when(refund(0)).then([]);
    given(reserved(release(0)))
      .when(refund(0))
      .then([]);
  });

  it('a refund returns the whole charge once; a second refund does nothing []', () => {
    given(reserved(charge(0)))
      .when(refund(0))
      .then([
        {
          type: 'JobRefunded',
          data: {
            entryId: ledgerEntryId(jobOf(), 'refund'),
            jobId: jobOf(),
            amountMinor: 400,
            currency: 'USD',
            reason: 'upstream_failed',
            refundedAt: at(30),
          },
        },
      ]);
    given(reserved(charge(0), refund(0)))
      .when(refund(0, 60))
      .then([]);
    const totals = foldAccount(reserved(charge(0), refund(0))).totals.USD;
    expect(totals.chargedMinor - totals.refundedMinor).toBe(0);
  });

  it('a reservation that never reached submit is released once; a charge is never released', () => {
    given(reserved())
      .when(release(0))
      .then([
        {
          type: 'ReservationReleased',
          data: {
            entryId: ledgerEntryId(jobOf(), 'release'),
            jobId: jobOf(),
            amountMinor: 400,
            currency: 'USD',
            reason: 'job_failed',
            releasedAt: at(30),
          },
        },
      ]);
    given(reserved(release(0)))
      .when(release(0, 40))
      .then([]);
    given(reserved(charge(0)))
      .when(release(0, 40))
      .then([]);
    given(funded()).when(release(0)).then([]);
  });

  it('a reservation is released as expired only after its expiry', () => {
    given(reserved())
      .when(release(0, 30, 'expired'))
      .thenThrows('ACCOUNT_RESERVATION_NOT_EXPIRED');
    expect(accountDecider.decide(release(0, 600, 'expired'), foldAccount(reserved()))).toHaveLength(1);
  });

  it('released or refunded auto-approved money gives its day’s use back', () => {
    expect(dailyAutoApprovedUse(foldAccount(reserved(release(0))), 'USD', '2026-11-30')).toBe(0);
    expect(dailyAutoApprovedUse(foldAccount(reserved(charge(0))), 'USD', '2026-11-30')).toBe(400);
    expect(dailyAutoApprovedUse(foldAccount(reserved(charge(0), refund(0))), 'USD', '2026-11-30')).toBe(0);
  });

  it('ledger entry ids derive from (jobId, kind): an entry folded twice counts once', () => {
    const events = reserved(charge(0), refund(0));
    const doubled = events.flatMap((e) => (e.type === 'QuoteIssued' || e.type.startsWith('Limits') ? [e] : [e, e]));
    expect(foldAccount(doubled).totals).toEqual(foldAccount(events).totals);
    expect(
      new Set(events.filter((e) => 'entryId' in e.data).map((e) => (e.data as { entryId: string }).entryId)).size,
    ).toBe(3);
    expect(ledgerEntryId(jobOf(), 'charge')).toBe(ledgerEntryId(jobOf(), 'charge'));
    expect(ledgerEntryId(jobOf(), 'charge')).not.toBe(ledgerEntryId(jobOf(), 'refund'));
  });
});
