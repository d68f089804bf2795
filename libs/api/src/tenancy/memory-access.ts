import { ApiError, ApiErrorCodes, streams } from '@lomo/contracts';
import { canSee, logOperatorRead, type Caller } from '@lomo/auth';
import type { Logger } from '@lomo/observability';
import type { MemoryOwner } from '@lomo/read-models';

/**
 * Whose memory a read is of, decided by the visibility policy (libs/auth/src/visibility-policy.ts)
 * on the person's `memory-{workspaceId}.{userId}` stream id alone, so the answer never depends on
 * whether that memory exists: a person reads their own; an operator reads anyone's, and the read
 * is logged; an integration reads none, and no person reads another's, in their workspace or any.
 */
export function requireMemoryRead(
  caller: Caller,
  asked: { workspaceId?: string; userId?: string },
  logger: Logger,
  path: string,
): MemoryOwner {
  const owner = { workspaceId: asked.workspaceId ?? caller.workspaceId, userId: asked.userId ?? caller.userId };
  const streamId = streams.memory(owner.workspaceId, owner.userId);
  if (canSee(caller, { streamId, workspaceId: owner.workspaceId }) !== 'allowed')
    throw new ApiError(ApiErrorCodes.FORBIDDEN, 'Memory is private to its person', { tokenKind: caller.kind });
  logOperatorRead(logger, caller, { path, workspaceId: owner.workspaceId, streamId });
  return owner;
}

/**
 * Only the person changes their memory: forgetting and corrections are theirs to confirm (DESIGN.md
 * §5). Operators read but cannot forget; integrations can do neither.
 */
export function requireMemoryOwner(caller: Caller, what: string): MemoryOwner {
  if (caller.kind !== 'person')
    throw new ApiError(ApiErrorCodes.FORBIDDEN, `Only the person ${what} their memory`, { tokenKind: caller.kind });
  return { workspaceId: caller.workspaceId, userId: caller.userId };
}
