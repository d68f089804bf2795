import { ApiError, ApiErrorCodes, notFound } from '@lomo/contracts';
import { canSee, logOperatorRead, type Caller } from '@lomo/auth';
import type { Logger } from '@lomo/observability';

export interface ContentTarget {
  streamId: string;
  /** The stream's workspace, from its events (or the document the read model built from them). */
  workspaceId: string;
  /** The event type whose content the field shows: the visibility policy decides per type. */
  eventType: string;
  /** For NOT_FOUND: what is read, and its id. */
  what: string;
  id: string;
}

/**
 * The visibility policy (libs/auth/src/visibility-policy.ts) for a field that shows what a
 * stream's events hold beyond the lifecycle an integration follows: a step's prompt, a task's
 * history summaries and constraints. People of the workspace and operators read it (an operator's
 * read is logged); an integration's token is FORBIDDEN; another workspace's stream is NOT_FOUND,
 * as if it did not exist.
 */
export function requireContentRead(caller: Caller, target: ContentTarget, logger: Logger, path: string): void {
  const { streamId, workspaceId, eventType } = target;
  if (canSee(caller, { streamId, workspaceId, eventType }) === 'allowed') {
    logOperatorRead(logger, caller, { path, workspaceId, streamId });
    return;
  }
  if (workspaceId !== caller.workspaceId && caller.kind !== 'operator') throw notFound(target.what, target.id);
  throw new ApiError(ApiErrorCodes.FORBIDDEN, `Only people of the workspace and operators read ${path}`, {
    tokenKind: caller.kind,
  });
}
