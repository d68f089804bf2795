import { assertNever, type Decider } from '@lomo/domain';
import type { AccountCommand } from './account-commands';
import type { AccountEvent } from './account-events';
import { evolveAccount } from './account-evolve';
import { initialAccountState, type AccountState } from './account-state';
import { approveBudget, approveQuote, issueQuote, setLimits } from './decide-approvals';
import { chargeJob, refundJob, releaseReservation, reserveFunds } from './decide-ledger';

export function decideAccount(command: AccountCommand, state: AccountState): AccountEvent[] {
  switch (command.type) {
    case 'IssueQuote':
      return issueQuote(command, state);
    case 'ApproveQuote':
      return approveQuote(command, state);
    case 'ApproveBudget':
      return approveBudget(command, state);
    case 'SetLimits':
      return setLimits(command, state);
    case 'ReserveFunds':
      return reserveFunds(command, state);
    case 'ReleaseReservation':
      return releaseReservation(command, state);
    case 'ChargeJob':
      return chargeJob(command, state);
    case 'RefundJob':
      return refundJob(command, state);
    default:
      return assertNever(command, 'account command');
  }
}

/**
 * The workspace's money (`account-{workspaceId}` streams, DESIGN.md §3): the authoritative ledger
 * of quotes, approvals, budgets, limits, reservations, charges and refunds. Whatever the order
 * and the repeats: per job charged − refunded is 0 or the price, nothing reserved goes below
 * zero, and spent never passes the approved budgets.
 */
export const accountDecider: Decider<AccountCommand, AccountEvent, AccountState> = {
  initialState: initialAccountState,
  decide: decideAccount,
  evolve: evolveAccount,
};
