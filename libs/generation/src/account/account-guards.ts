import type { Actor } from '@lomo/contracts';
import { AccountErrors, AccountRefusedError, type AccountErrorCode } from './account-errors';
import { emptyTotals, type AccountState, type CurrencyTotals } from './account-state';

export function refuse(code: AccountErrorCode, message: string, details: Record<string, unknown> = {}): never {
  throw new AccountRefusedError(code, message, details);
}

export function invalid(message: string, details: Record<string, unknown> = {}): never {
  return refuse(AccountErrors.INVALID_COMMAND, message, details);
}

export function instant(at: string, what = 'at'): string {
  const ms = Date.parse(at);
  if (!Number.isFinite(ms)) invalid(`${what} is not an ISO 8601 instant: ${at}`);
  return new Date(ms).toISOString();
}

export function wholeMinor(amount: number, what: string): void {
  if (!Number.isSafeInteger(amount) || amount < 0 || amount > 100_000_000)
    invalid(`${what} is whole minor units 0..100000000, got ${amount}`);
}

export function currencyCode(currency: string): void {
  if (!/^[A-Z]{3}$/.test(currency)) invalid(`${currency} is not an ISO 4217 currency code`);
}

/**
 * A model's claim of approval is never authorization (DESIGN.md §5): the agent cannot record an
 * approval, and a person records one only as themselves. A system component may record the
 * person's decision it read (a resolved checkpoint of the task stream).
 */
export function byThePerson(by: Actor, person: string, what: string): void {
  if (by.kind === 'agent')
    refuse(AccountErrors.APPROVAL_NOT_BY_PERSON, `The agent cannot ${what}: only a person can`, { person });
  if (by.kind === 'user' && by.userId !== person)
    refuse(AccountErrors.APPROVAL_NOT_BY_PERSON, `User ${by.userId} cannot ${what} as ${person}`, { person });
}

export const totalsOf = (state: AccountState, currency: string): CurrencyTotals =>
  state.totals[currency] ?? emptyTotals();

/** Charged minus refunded: what was really spent. */
export const spentOf = (t: CurrencyTotals): number => t.chargedMinor - t.refundedMinor;

/** Approved budgets minus what is held and spent. */
export const availableOf = (t: CurrencyTotals): number => t.budgetMinor - t.reservedMinor - spentOf(t);
