import {
  accountHistory,
  at,
  budgetOf,
  callOf,
  foldAccount,
  genIds,
  issueQuoteOf,
  jobOf,
  limitsOf,
  requestOf,
} from '../testing';
import type { AccountCommand } from './account-commands';
import { accountSummary, holdsReservation, ledgerOfJob, workspaceDayOf } from './account-queries';
import { dayInTimeZone } from './workspace-day';

const requestN = (n: number) => requestOf({ callId: callOf(1, n), amountMinor: 100 * (n + 1) });
const reserve = (n: number): AccountCommand => ({
  type: 'ReserveFunds',
  jobId: jobOf(callOf(1, n)),
  quoteId: requestN(n).quote.quoteId,
  at: at(),
  expiresAt: at(600),
});
const jobId = (n: number) => jobOf(callOf(1, n));

describe('account read helpers: summary folded from state', () => {
  it('sums approved budgets, reserved, spent, refunded, and the day’s auto-approve use against its limit', () => {
    const state = foldAccount(
      accountHistory(
        budgetOf(1000),
        budgetOf(500, genIds.budget2),
        limitsOf(500, 800, 'Asia/Shanghai'),
        ...[0, 1, 2, 3].map((n) => issueQuoteOf(requestN(n))),
        reserve(0), // 100, refunded below
        reserve(1), // 200, charged
        reserve(2), // 300, held
        { type: 'ChargeJob', jobId: jobId(0), at: at(1) },
        { type: 'ChargeJob', jobId: jobId(1), at: at(1) },
        { type: 'RefundJob', jobId: jobId(0), reason: 'outcome_unknown', at: at(2) },
      ),
    );
    const day = workspaceDayOf(state, at());
    expect(day).toBe('2026-11-30');
    const summary = accountSummary(state, day);
    expect(summary.currencies).toEqual([
      {
        currency: 'USD',
        approvedBudgetMinor: 1500,
        reservedMinor: 300,
        chargedMinor: 300,
        refundedMinor: 100,
        spentMinor: 200,
        releasedMinor: 0,
        availableMinor: 1000,
      },
    ]);
    expect(summary.daily).toEqual({ day, currency: 'USD', usedMinor: 500, limitMinor: 800, remainingMinor: 300 });
    expect(summary.pendingQuoteIds).toEqual([requestN(3).quote.quoteId]);
    expect(summary.budgets.map((b) => b.amountMinor)).toEqual([1000, 500]);
    expect(accountSummary(state, '2026-12-01').daily?.usedMinor).toBe(0);
    expect(holdsReservation(state, jobId(2))).toBe(true);
    expect(holdsReservation(state, jobId(1))).toBe(false);
    expect(ledgerOfJob(state, jobId(3))).toBeNull();
  });

  it('the workspace day is computed in its time zone, UTC without limits', () => {
    expect(dayInTimeZone('2026-11-30T16:30:00.000Z', 'Asia/Shanghai')).toBe('2026-12-01');
    expect(dayInTimeZone('2026-11-30T06:30:00.000Z', 'America/Los_Angeles')).toBe('2026-11-29');
    expect(workspaceDayOf(foldAccount([]), '2026-11-30T23:59:59.000Z')).toBe('2026-11-30');
    expect(accountSummary(foldAccount([]), '2026-11-30')).toEqual({
      currencies: [],
      budgets: [],
      limits: null,
      daily: null,
      pendingQuoteIds: [],
    });
  });
});
