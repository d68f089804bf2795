import { canSee, OPERATOR_CATEGORY, privateOwnerOf, type Caller } from '@lomo/auth';
import { OperatorRoleRequiredError, WorkspaceForbiddenError } from '../errors';
import { assertMayReadWorkspace } from '../access/operator-access';

/**
 * Whether the caller may read a stream as a whole, before anything of it is shown. A private
 * stream (main line, memory, receipts) is decided from its id alone, so a refusal never says
 * whether it exists; a shared one by the workspace its events belong to.
 */
export function assertMayReadStream(caller: Caller, streamId: string, workspaceId: string): void {
  if (streamId.startsWith(`${OPERATOR_CATEGORY}-`) && caller.kind !== 'operator')
    throw new OperatorRoleRequiredError(`reading ${streamId}`);
  assertMayReadWorkspace(caller, workspaceId);
  if (canSee(caller, { streamId, workspaceId }) === 'hidden') throw new WorkspaceForbiddenError(workspaceId);
}

/** For a private stream id: its refusal, decided before reading (undefined for shared streams). */
export function assertMayReadPrivateStream(caller: Caller, streamId: string): void {
  const owner = privateOwnerOf(streamId);
  if (owner !== undefined) assertMayReadStream(caller, streamId, owner.workspaceId);
}
