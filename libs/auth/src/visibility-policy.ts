import { isValidStreamId, type StreamCategory } from '@lomo/contracts';
import type { Logger } from '@lomo/observability';
import type { Caller } from './caller';

/**
 * Who may read what (DESIGN.md §4 "Tenancy"). The one decision every read path asks: `events`,
 * `eventFeed` (catch-up and live), subscriptions, webhook deliveries (for the webhook's
 * registrant), consistency tokens and the main-line queries. Pure: no I/O, no clock.
 *
 * - A person's main line and memory (`main-{ws}.{user}`, `memory-{ws}.{user}`) are private to
 *   that person, decided from the stream id alone, so a refusal never depends on whether the
 *   stream exists.
 * - Tasks, turns, artefacts, generation jobs and the account are shared by the workspace.
 * - `integration` tokens see, of the shared streams, the event types the workspace exposes to
 *   integrations (INTEGRATION_EXPOSED_EVENT_TYPES), never a private stream.
 * - `operator` tokens see every stream of every workspace; each read is logged (logOperatorRead).
 *   The `operator-{ws}` streams, what operators changed, are for operator tokens only.
 */
export type Visibility = 'allowed' | 'hidden';

export interface ReadTarget {
  streamId: string;
  /** The workspace the stream (every event of it) belongs to: its events' metadata.workspaceId. */
  workspaceId: string;
  /** Asked per event; undefined asks about the stream as a whole (may it be read at all). */
  eventType?: string;
}

/** A person's own streams: the main line, memory, and the receipts of the message ids they sent. */
export const PRIVATE_CATEGORIES: ReadonlySet<string> = new Set<StreamCategory>(['main', 'memory', 'receipt']);
export const SHARED_CATEGORIES: ReadonlySet<string> = new Set<StreamCategory>([
  'task',
  'turn',
  'artifact',
  'generation',
  'account',
]);

/** The operators' own log of what they changed (libs/contracts/src/events/operator.ts). */
export const OPERATOR_CATEGORY: StreamCategory = 'operator';

/**
 * What a workspace exposes to integrations, for now the same for every workspace: the lifecycle
 * of tasks and turns (what an external system needs to follow work), none of their content
 * (briefs, inbox items, model steps, tool calls) and nothing of a private stream.
 */
export const INTEGRATION_EXPOSED_EVENT_TYPES: ReadonlySet<string> = new Set([
  'TaskCreated',
  'TaskUpgraded',
  'TaskPaused',
  'TaskResumed',
  'TaskStopped',
  'TaskCompleted',
  'TaskArchived',
  'TurnOpened',
  'TurnClosed',
  'TurnStarted',
  'TurnWaiting',
  'TurnResumed',
  'TurnCompleted',
  'TurnFailed',
  'TurnCancelled',
]);

/**
 * `main-{ws}.{user}` (or `receipt-{ws}.{user}.{messageId}`) → its owner; undefined for other
 * categories or a malformed id. Workspace and user ids are slugs, which hold no dot.
 */
export function privateOwnerOf(streamId: string): { workspaceId: string; userId: string } | undefined {
  const match = /^([a-z]+)-([^.]+)\.([^.]+)(?:\.[^.]+)?$/.exec(streamId);
  if (match === null || !PRIVATE_CATEGORIES.has(match[1])) return undefined;
  return { workspaceId: match[2], userId: match[3] };
}

const categoryOfId = (streamId: string): string | undefined =>
  isValidStreamId(streamId) ? streamId.slice(0, streamId.indexOf('-')) : undefined;

export function canSee(caller: Caller, target: ReadTarget): Visibility {
  const category = categoryOfId(target.streamId);
  if (category === undefined) return 'hidden';
  if (PRIVATE_CATEGORIES.has(category)) {
    const owner = privateOwnerOf(target.streamId);
    // A private stream's id names its workspace; one whose events say otherwise is not trusted.
    if (owner === undefined || owner.workspaceId !== target.workspaceId) return 'hidden';
    if (caller.kind === 'operator') return 'allowed';
    return caller.kind === 'person' && owner.workspaceId === caller.workspaceId && owner.userId === caller.userId
      ? 'allowed'
      : 'hidden';
  }
  // What operators did (`operator-{ws}`) is for operators only, of every workspace.
  if (category === OPERATOR_CATEGORY) return caller.kind === 'operator' ? 'allowed' : 'hidden';
  if (!SHARED_CATEGORIES.has(category)) return 'hidden';
  if (caller.kind === 'operator') return 'allowed';
  if (target.workspaceId !== caller.workspaceId) return 'hidden';
  if (caller.kind === 'person') return 'allowed';
  return target.eventType === undefined || INTEGRATION_EXPOSED_EVENT_TYPES.has(target.eventType) ? 'allowed' : 'hidden';
}

/** canSee for an event as the store returns it. */
export function canSeeEvent(
  caller: Caller,
  event: { type: string; metadata: { streamId: string; workspaceId: string } },
): boolean {
  return (
    canSee(caller, {
      streamId: event.metadata.streamId,
      workspaceId: event.metadata.workspaceId,
      eventType: event.type,
    }) === 'allowed'
  );
}

/**
 * The store-side narrowing of a read over stream categories, for the workspace `workspaceId`: the
 * prefixes that can hold visible events (private streams narrowed to the caller's own, none for
 * integrations) and, for integrations, the exposed types. Narrowing only: a prefix such as
 * `main-ws.u1` also matches `main-ws.u10`, so every event read is still passed to canSee.
 */
export function visibleStreamPrefixes(
  caller: Caller,
  workspaceId: string,
  categories: readonly string[],
): { streamPrefixes: string[]; eventTypes?: string[] } {
  const prefixes: string[] = [];
  for (const category of categories) {
    if (PRIVATE_CATEGORIES.has(category)) {
      if (caller.kind === 'operator') prefixes.push(`${category}-${workspaceId}.`);
      else if (caller.kind === 'person') prefixes.push(`${category}-${workspaceId}.${caller.userId}`);
    } else if (SHARED_CATEGORIES.has(category)) prefixes.push(`${category}-`);
    else if (category === OPERATOR_CATEGORY && caller.kind === 'operator') prefixes.push(`${category}-`);
  }
  return caller.kind === 'integration'
    ? { streamPrefixes: prefixes, eventTypes: [...INTEGRATION_EXPOSED_EVENT_TYPES] }
    : { streamPrefixes: prefixes };
}

/**
 * Whether a caller may name `workspaceId` as the workspace to read: its own always; another only
 * as an operator. Read paths turn `false` into FORBIDDEN.
 */
export const mayReadWorkspace = (caller: Caller, workspaceId: string): boolean =>
  workspaceId === caller.workspaceId || caller.kind === 'operator';

/** The line every operator read leaves, one shape on every path (tests look for this message). */
export const OPERATOR_READ_MESSAGE = 'operator read';

export function logOperatorRead(
  logger: Logger,
  caller: Caller,
  read: { path: string; workspaceId: string; streamId?: string },
): void {
  if (caller.kind !== 'operator') return;
  logger.info(
    {
      component: 'operator-audit',
      tokenId: caller.tokenId,
      tokenName: caller.tokenName,
      operatorWorkspaceId: caller.workspaceId,
      operatorUserId: caller.userId,
      ...read,
    },
    OPERATOR_READ_MESSAGE,
  );
}
