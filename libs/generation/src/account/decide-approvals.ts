import type { ApproveBudget, ApproveQuote, IssueQuote, SetLimits } from './account-commands';
import { AccountErrors } from './account-errors';
import type { AccountEvent } from './account-events';
import { byThePerson, currencyCode, instant, invalid, refuse, wholeMinor } from './account-guards';
import type { AccountState, QuoteRecord } from './account-state';
import { isKnownTimeZone } from './workspace-day';

const sameQuote = (a: QuoteRecord, c: IssueQuote): boolean =>
  a.jobId === c.jobId &&
  a.quote.provider === c.quote.provider &&
  a.quote.units === c.quote.units &&
  a.quote.unit === c.quote.unit &&
  a.quote.unitPriceMinor === c.quote.unitPriceMinor &&
  a.quote.amountMinor === c.quote.amountMinor &&
  a.quote.currency === c.quote.currency;

/** One quote per job, fixed once: the same quote again is a no-op, another price is refused. */
export function issueQuote(command: IssueQuote, state: AccountState): AccountEvent[] {
  const { quote } = command;
  const known = state.quotes[quote.quoteId];
  if (known !== undefined) {
    if (sameQuote(known, command)) return [];
    return refuse(AccountErrors.QUOTE_CONFLICT, `Quote ${quote.quoteId} was issued with other terms`, {
      quoteId: quote.quoteId,
    });
  }
  const ofJob = state.quoteOfJob[command.jobId];
  if (ofJob !== undefined)
    return refuse(AccountErrors.QUOTE_CONFLICT, `Job ${command.jobId} was quoted already (quote ${ofJob})`, {
      jobId: command.jobId,
      quoteId: ofJob,
    });
  wholeMinor(quote.amountMinor, 'A quote amount');
  wholeMinor(quote.unitPriceMinor, 'A unit price');
  currencyCode(quote.currency);
  return [
    {
      type: 'QuoteIssued',
      data: {
        quote: { ...quote },
        jobId: command.jobId,
        taskId: command.taskId,
        callId: command.callId,
        issuedAt: instant(command.at),
      },
    },
  ];
}

export function approveQuote(command: ApproveQuote, state: AccountState): AccountEvent[] {
  byThePerson(command.by, command.approvedBy, 'approve a quote');
  const quote = state.quotes[command.quoteId];
  if (quote === undefined)
    return refuse(AccountErrors.QUOTE_NOT_FOUND, `No quote ${command.quoteId}`, { quoteId: command.quoteId });
  if (quote.approval !== null) return [];
  const data = {
    quoteId: command.quoteId,
    approvedBy: command.approvedBy,
    ...(command.checkpointId !== undefined ? { checkpointId: command.checkpointId } : {}),
    approvedAt: instant(command.at),
  };
  return [{ type: 'QuoteApproved', data }];
}

/** Budgets add up; the same budget again is a no-op, the same id with another amount is refused. */
export function approveBudget(command: ApproveBudget, state: AccountState): AccountEvent[] {
  byThePerson(command.by, command.approvedBy, 'approve a budget');
  wholeMinor(command.amountMinor, 'A budget');
  currencyCode(command.currency);
  const known = state.budgets[command.budgetId];
  if (known !== undefined) {
    if (
      known.amountMinor === command.amountMinor &&
      known.currency === command.currency &&
      known.taskId === (command.taskId ?? null) &&
      known.jobId === (command.jobId ?? null)
    )
      return [];
    return refuse(AccountErrors.BUDGET_CONFLICT, `Budget ${command.budgetId} was approved with another amount`, {
      budgetId: command.budgetId,
    });
  }
  if (command.jobId !== undefined && command.taskId === undefined) invalid('A job’s budget names its task');
  const data = {
    budgetId: command.budgetId,
    ...(command.taskId !== undefined ? { taskId: command.taskId } : {}),
    ...(command.jobId !== undefined ? { jobId: command.jobId } : {}),
    ...(command.checkpointId !== undefined ? { checkpointId: command.checkpointId } : {}),
    amountMinor: command.amountMinor,
    currency: command.currency,
    approvedBy: command.approvedBy,
    approvedAt: instant(command.at),
  };
  return [{ type: 'BudgetApproved', data }];
}

/** The latest limits stand; setting the same limits again is a no-op. */
export function setLimits(command: SetLimits, state: AccountState): AccountEvent[] {
  byThePerson(command.by, command.setBy, 'set spending limits');
  wholeMinor(command.perCallAutoApproveMinor, 'The per-call limit');
  wholeMinor(command.dailyAutoApproveMinor, 'The daily limit');
  currencyCode(command.currency);
  if (!isKnownTimeZone(command.timeZone)) invalid(`${command.timeZone} is not a known time zone`);
  const l = state.limits;
  if (
    l !== null &&
    l.currency === command.currency &&
    l.perCallAutoApproveMinor === command.perCallAutoApproveMinor &&
    l.dailyAutoApproveMinor === command.dailyAutoApproveMinor &&
    l.timeZone === command.timeZone
  )
    return [];
  const data = {
    currency: command.currency,
    perCallAutoApproveMinor: command.perCallAutoApproveMinor,
    dailyAutoApproveMinor: command.dailyAutoApproveMinor,
    timeZone: command.timeZone,
    setBy: command.setBy,
    setAt: instant(command.at),
  };
  return [{ type: 'LimitsSet', data }];
}
