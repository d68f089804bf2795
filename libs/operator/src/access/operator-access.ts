import { canSeeEvent, mayReadWorkspace, type Caller } from '@lomo/auth';
import type { EventEnvelope } from '@lomo/contracts';
import { OperatorRoleRequiredError, WorkspaceForbiddenError } from '../errors';

/**
 * The visibility policy of the API (libs/auth/src/visibility-policy.ts), applied to the operator
 * tools: a person's token reads its own workspace (its private streams its own only), an
 * operator token reads every workspace, each read logged by the caller of these.
 */
export function assertMayReadWorkspace(caller: Caller, workspaceId: string): void {
  if (!mayReadWorkspace(caller, workspaceId)) throw new WorkspaceForbiddenError(workspaceId);
}

/** System-wide reads and every write (projections, relay, dead letters, import) are operators' only. */
export function assertOperator(caller: Caller, what: string): void {
  if (caller.kind !== 'operator') throw new OperatorRoleRequiredError(what);
}

/** Whether one event may be shown to the caller. */
export const mayShow = (caller: Caller, event: EventEnvelope): boolean => canSeeEvent(caller, event);
