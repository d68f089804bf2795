import { makeCallId, type Actor } from '@lomo/contracts';
import { accountDecider } from '../account/account-decider';
import type { AccountCommand, ApproveBudget, IssueQuote, SetLimits } from '../account/account-commands';
import type { AccountEvent } from '../account/account-events';
import { quoteIdFor } from '../account/account-ids';
import type { AccountState } from '../account/account-state';
import { generationJobDecider } from '../job/job-decider';
import type { GenerationJobCommand, RequestGeneration } from '../job/job-commands';
import type { GenerationJobEvent, GenerationQuoteData } from '../job/job-events';
import { generationJobId } from '../job/job-ids';
import type { GenerationJobState } from '../job/job-state';

// Shared by the generation specs: ids, actors, times, and histories built through the deciders
// themselves, so a fixture never holds an event a decider would not produce.

export const genIds = {
  workspace: 'ws1',
  otherWorkspace: 'ws2',
  task: '3b9c6f3e-8a51-4d7e-9a35-2f7c1d4e5a63',
  turn: '7b9c6f3e-8a51-4d7e-9a35-2f7c1d4e5a67',
  budget: '4b9c6f3e-8a51-4d7e-9a35-2f7c1d4e5a64',
  planBudget: '6c2d8e4f-1b73-4a9e-8c52-3e8d2f5b6a71',
  budget2: '5b9c6f3e-8a51-4d7e-9a35-2f7c1d4e5a65',
  checkpoint: '6b9c6f3e-8a51-4d7e-9a35-2f7c1d4e5a66',
  artifact: '8b9c6f3e-8a51-4d7e-9a35-2f7c1d4e5a68',
} as const;

export const T0 = '2026-11-30T08:00:00.000Z';
/** T0 plus some seconds, as an ISO instant. */
export const at = (seconds = 0): string => new Date(Date.parse(T0) + seconds * 1000).toISOString();

export const person: Actor = { kind: 'user', userId: 'u1' };
export const otherPerson: Actor = { kind: 'user', userId: 'u2' };
export const agentActor: Actor = { kind: 'agent' };
export const systemActor: Actor = { kind: 'system', component: 'generation' };

export const callOf = (step = 1, index = 0, turn: string = genIds.turn): string => makeCallId(turn, step, index);
export const jobOf = (callId: string = callOf(), workspaceId: string = genIds.workspace): string =>
  generationJobId(workspaceId, callId);

export const quoteOf = (jobId: string, amountMinor = 400, currency = 'USD'): GenerationQuoteData => ({
  quoteId: quoteIdFor(jobId),
  provider: 'simulated',
  units: 1,
  unit: 'image',
  unitPriceMinor: amountMinor,
  amountMinor,
  currency,
});

export function requestOf(
  options: { callId?: string; workspaceId?: string; amountMinor?: number; prompt?: string; at?: string } = {},
): RequestGeneration {
  const callId = options.callId ?? callOf();
  const workspaceId = options.workspaceId ?? genIds.workspace;
  return {
    type: 'RequestGeneration',
    workspaceId,
    taskId: genIds.task,
    turnId: callId.split(':')[0],
    callId,
    provider: 'simulated',
    kind: 'image',
    operation: 'image.generate',
    params: { prompt: options.prompt ?? 'A poster of the harbour at dawn', options: { size: '1024x1024' } },
    quote: quoteOf(generationJobId(workspaceId, callId), options.amountMinor),
    at: options.at ?? at(),
  };
}

export const issueQuoteOf = (request: RequestGeneration): IssueQuote => ({
  type: 'IssueQuote',
  quote: request.quote,
  jobId: generationJobId(request.workspaceId, request.callId),
  taskId: request.taskId,
  callId: request.callId,
  at: request.at,
});

/** A budget of the workspace (no plan): calls within it still need an approval or the auto-approve limits. */
export const budgetOf = (amountMinor: number, budgetId: string = genIds.budget, currency = 'USD'): ApproveBudget => ({
  type: 'ApproveBudget',
  budgetId,
  amountMinor,
  currency,
  approvedBy: 'u1',
  by: person,
  at: at(),
});

/** A budget the person approved for a task's plan: its calls reserve `plan_approved` within it. */
export const planBudgetOf = (
  amountMinor: number,
  budgetId: string = genIds.planBudget,
  taskId: string = genIds.task,
  currency = 'USD',
): ApproveBudget => ({ ...budgetOf(amountMinor, budgetId, currency), taskId });

export const limitsOf = (perCall: number, daily: number, timeZone = 'UTC', currency = 'USD'): SetLimits => ({
  type: 'SetLimits',
  currency,
  perCallAutoApproveMinor: perCall,
  dailyAutoApproveMinor: daily,
  timeZone,
  setBy: 'u1',
  by: person,
  at: at(),
});

/** Runs commands through a decider, failing on a refusal, and returns every event. */
function historyOf<C, E, S>(
  decider: { initialState: () => S; decide: (c: C, s: S) => E[]; evolve: (s: S, e: E) => S },
  commands: ReadonlyArray<C | ((state: S) => C)>,
): E[] {
  const events: E[] = [];
  let state = decider.initialState();
  for (const c of commands) {
    const decided = decider.decide(typeof c === 'function' ? (c as (s: S) => C)(state) : c, state);
    for (const e of decided) state = decider.evolve(state, e);
    events.push(...decided);
  }
  return events;
}

export const jobHistory = (
  ...commands: Array<GenerationJobCommand | ((state: GenerationJobState) => GenerationJobCommand)>
): GenerationJobEvent[] => historyOf(generationJobDecider, commands);

export const accountHistory = (
  ...commands: Array<AccountCommand | ((state: AccountState) => AccountCommand)>
): AccountEvent[] => historyOf(accountDecider, commands);

export const foldJob = (events: readonly GenerationJobEvent[]): GenerationJobState =>
  events.reduce(generationJobDecider.evolve, generationJobDecider.initialState());

export const foldAccount = (events: readonly AccountEvent[]): AccountState =>
  events.reduce(accountDecider.evolve, accountDecider.initialState());
