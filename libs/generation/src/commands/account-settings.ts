import { handleCommand, metadataOf, type StreamWrite } from '@lomo/command-handling';
import { deterministicUuid, streams, type Clock, type IdGenerator } from '@lomo/contracts';
import type { EventStore } from '@lomo/eventstore';
import { accountDecider } from '../account/account-decider';
import type { AccountCommand } from '../account/account-commands';
import { accountEventTypes } from '../account/account-events';

export interface AccountSettingsDeps {
  store: EventStore;
  ids: IdGenerator;
  clock: Clock;
}

export interface AccountSettingResult {
  /** False on a repeat (the same budget request, the same limits). */
  changed: boolean;
  writes: StreamWrite[];
}

/** The budget's id from the person's request key, so a retried request approves one budget. */
export const budgetIdFor = (workspaceId: string, requestKey: string) =>
  deterministicUuid('lomo.generation.budget', `${workspaceId}:${requestKey}`);

async function decide(
  deps: AccountSettingsDeps,
  workspaceId: string,
  userId: string,
  command: AccountCommand,
): Promise<AccountSettingResult> {
  const result = await handleCommand(deps.store, streams.account(workspaceId), accountDecider, command, {
    eventTypes: accountEventTypes,
    ids: deps.ids,
    metadata: metadataOf({ workspaceId, actor: { kind: 'user', userId }, fallbackCorrelationId: workspaceId }),
  });
  return { changed: result.changed, writes: [...result.writes] };
}

/**
 * A person approves a plan budget: paid work of the workspace (or of one task) may spend up to it
 * in its currency (DESIGN.md §5). Budgets add up; the account decider refuses bad amounts and
 * currencies with a typed error and appends nothing. Jobs waiting on money are advanced by the
 * generation worker, which reacts to BudgetApproved.
 */
export function approveBudget(
  deps: AccountSettingsDeps,
  request: {
    workspaceId: string;
    userId: string;
    amountMinor: number;
    currency: string;
    taskId?: string;
    requestKey: string;
  },
): Promise<AccountSettingResult> {
  return decide(deps, request.workspaceId, request.userId, {
    type: 'ApproveBudget',
    budgetId: budgetIdFor(request.workspaceId, request.requestKey),
    ...(request.taskId !== undefined ? { taskId: request.taskId } : {}),
    amountMinor: request.amountMinor,
    currency: request.currency,
    approvedBy: request.userId,
    by: { kind: 'user', userId: request.userId },
    at: deps.clock.now().toISOString(),
  });
}

/**
 * A person sets the auto-approve limits: a quote up to `perCallAutoApproveMinor`, while the day's
 * auto-approved money (the day in `timeZone`) stays within `dailyAutoApproveMinor`, is reserved
 * without asking; anything above asks at a checkpoint.
 */
export function setSpendingLimits(
  deps: AccountSettingsDeps,
  request: {
    workspaceId: string;
    userId: string;
    currency: string;
    perCallAutoApproveMinor: number;
    dailyAutoApproveMinor: number;
    timeZone: string;
  },
): Promise<AccountSettingResult> {
  return decide(deps, request.workspaceId, request.userId, {
    type: 'SetLimits',
    currency: request.currency,
    perCallAutoApproveMinor: request.perCallAutoApproveMinor,
    dailyAutoApproveMinor: request.dailyAutoApproveMinor,
    timeZone: request.timeZone,
    setBy: request.userId,
    by: { kind: 'user', userId: request.userId },
    at: deps.clock.now().toISOString(),
  });
}
