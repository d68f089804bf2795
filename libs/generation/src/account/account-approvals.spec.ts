import { streams } from '@lomo/contracts';
import { deciderSpec, expectEventTypesOfCategory } from '@lomo/testing';
import {
  accountHistory,
  agentActor,
  at,
  budgetOf,
  foldAccount,
  genIds,
  issueQuoteOf,
  limitsOf,
  otherPerson,
  person,
  requestOf,
  systemActor,
} from '../testing';
import type { AccountCommand, ApproveQuote } from './account-commands';
import { accountDecider } from './account-decider';
import { accountEventTypes, type AccountEvent } from './account-events';

const { given } = deciderSpec(accountDecider);
const request = requestOf();
const quoteId = request.quote.quoteId;
const issued = () => accountHistory(issueQuoteOf(request));
const approve = (by = person, approvedBy = 'u1'): ApproveQuote => ({
  type: 'ApproveQuote',
  quoteId,
  approvedBy,
  checkpointId: genIds.checkpoint,
  by,
  at: at(5),
});

describe('account: quotes, approvals by a person, budgets and limits', () => {
  it('the account stream holds exactly the registry’s account events, on account-{workspaceId}', () => {
    expectEventTypesOfCategory('account', accountEventTypes);
    expect(streams.account('ws1')).toBe('account-ws1');
  });

  it('a quote is issued once per job: the same quote again is a no-op [], another price is refused', () => {
    given([])
      .when(issueQuoteOf(request))
      .then([
        {
          type: 'QuoteIssued',
          data: {
            quote: request.quote,
            jobId: issueQuoteOf(request).jobId,
            taskId: genIds.task,
            callId: request.callId,
            issuedAt: at(),
          },
        },
      ]);
    given(issued()).when(issueQuoteOf(request)).then([]);
    given(issued())
      .when({ ...issueQuoteOf(request), quote: { ...request.quote, amountMinor: 999 } })
      .thenThrows('ACCOUNT_QUOTE_CONFLICT');
  });

  it('a person approves a quote as themselves; a repeat is a no-op []', () => {
    given(issued())
      .when(approve())
      .then([
        {
          type: 'QuoteApproved',
          data: { quoteId, approvedBy: 'u1', checkpointId: genIds.checkpoint, approvedAt: at(5) },
        },
      ]);
    given(accountHistory(issueQuoteOf(request), approve()))
      .when(approve())
      .then([]);
    // A system component may record the person's decision it read from the resolved checkpoint.
    expect(accountDecider.decide(approve(systemActor), foldAccount(issued()))).toHaveLength(1);
  });

  it('the agent cannot approve a quote, a budget or limits; nor can a person in another’s name', () => {
    given(issued()).when(approve(agentActor)).thenThrows('ACCOUNT_APPROVAL_NOT_BY_PERSON');
    given(issued()).when(approve(otherPerson, 'u1')).thenThrows('ACCOUNT_APPROVAL_NOT_BY_PERSON');
    given([])
      .when({ ...budgetOf(1000), by: agentActor })
      .thenThrows('ACCOUNT_APPROVAL_NOT_BY_PERSON');
    given([])
      .when({ ...limitsOf(500, 1000), by: agentActor })
      .thenThrows('ACCOUNT_APPROVAL_NOT_BY_PERSON');
  });

  it('an approval recorded by the agent resolves nothing (recordedBy): the quote stays unapproved, budgets and limits unchanged', () => {
    const forged: AccountEvent[] = [
      ...issued(),
      { type: 'QuoteApproved', data: { quoteId, approvedBy: 'u1', approvedAt: at(5) }, recordedBy: agentActor },
      { ...accountHistory(budgetOf(5000))[0], recordedBy: agentActor },
      { ...accountHistory(limitsOf(5000, 5000))[0], recordedBy: agentActor },
    ];
    const state = foldAccount(forged);
    expect(state.quotes[quoteId].approval).toBeNull();
    expect(state.budgets).toEqual({});
    expect(state.limits).toBeNull();
    // And the same events recorded by the person do count.
    const real = foldAccount(forged.map((e) => ({ ...e, recordedBy: person })));
    expect(real.quotes[quoteId].approval?.approvedBy).toBe('u1');
    expect(real.totals.USD.budgetMinor).toBe(5000);
    expect(real.limits?.perCallAutoApproveMinor).toBe(5000);
  });

  it('approving a quote that was never issued is refused', () => {
    given([]).when(approve()).thenThrows('ACCOUNT_QUOTE_NOT_FOUND');
  });

  it('budgets add up; the same budget again is a no-op [], the same id with another amount is refused', () => {
    const two = accountHistory(budgetOf(1000), budgetOf(500, genIds.budget2));
    expect(foldAccount(two).totals.USD.budgetMinor).toBe(1500);
    given(two).when(budgetOf(1000)).then([]);
    given(two).when(budgetOf(2000)).thenThrows('ACCOUNT_BUDGET_CONFLICT');
  });

  it('limits name a known time zone; the same limits again are a no-op []', () => {
    given([])
      .when(limitsOf(500, 2000, 'Mars/Olympus'))
      .thenThrows('ACCOUNT_INVALID_COMMAND');
    given(accountHistory(limitsOf(500, 2000, 'Asia/Shanghai')))
      .when(limitsOf(500, 2000, 'Asia/Shanghai'))
      .then([]);
  });

  it('amounts are whole minor units with an ISO currency', () => {
    const bad: AccountCommand[] = [
      { ...budgetOf(10.5) },
      { ...budgetOf(-1) },
      { ...budgetOf(100), currency: 'usd' },
      { ...limitsOf(1.5, 100) },
    ];
    for (const command of bad) given([]).when(command).thenThrows('ACCOUNT_INVALID_COMMAND');
  });
});
