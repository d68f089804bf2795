import type { Caller } from '@lomo/auth';
import { isValidStreamId, ValidationError, type EventEnvelope } from '@lomo/contracts';
import type { EventFilter } from '@lomo/eventstore';
import { BadOperatorInputError, BadPositionError } from '../errors';
import { assertMayReadWorkspace, mayShow } from '../access/operator-access';
import { ForgottenIdsReader, redactForgotten } from './redact-forgotten';
import type { InspectionSources } from './inspection-sources';
import { assertMayReadPrivateStream } from './stream-access';

export interface TailFilter {
  /** One stream, exactly. */
  streamId?: string;
  /** One event type. */
  type?: string;
  /** Events of one workspace (their metadata.workspaceId). */
  workspaceId?: string;
  /** Exclusive: events after this position; default from the start. */
  fromPosition?: string;
}

export interface TailOptions {
  /** After catching up, keep polling for new events until `signal` aborts. */
  follow?: boolean;
  signal?: AbortSignal;
  pollMs?: number;
  /** At most this many events are yielded. */
  limit?: number;
}

const PAGE = 500;
const DEFAULT_POLL_MS = 1_000;

/**
 * `lomo events tail`: the log in global order, narrowed in the store where it can be (a stream
 * id is a prefix there, a type a type) and checked per event (the exact stream, the workspace),
 * every event passed through the visibility policy; hidden ones are skipped, never shown.
 */
export async function* tailEvents(
  sources: InspectionSources,
  caller: Caller,
  filter: TailFilter,
  options: TailOptions = {},
): AsyncGenerator<EventEnvelope> {
  if (filter.workspaceId !== undefined) assertMayReadWorkspace(caller, filter.workspaceId);
  if (filter.streamId !== undefined) {
    if (!isValidStreamId(filter.streamId))
      throw new BadOperatorInputError(`"${filter.streamId}" is not a stream id`, { streamId: filter.streamId });
    assertMayReadPrivateStream(caller, filter.streamId);
  }
  if (options.limit !== undefined && !(Number.isSafeInteger(options.limit) && options.limit >= 0))
    throw new BadOperatorInputError(`limit ${String(options.limit)} is not a count`, { limit: options.limit });
  const storeFilter: EventFilter = {
    ...(filter.streamId !== undefined ? { streamPrefixes: [filter.streamId] } : {}),
    ...(filter.type !== undefined ? { eventTypes: [filter.type] } : {}),
  };
  const wanted = (e: EventEnvelope) =>
    (filter.streamId === undefined || e.metadata.streamId === filter.streamId) &&
    (filter.workspaceId === undefined || e.metadata.workspaceId === filter.workspaceId) &&
    mayShow(caller, e);

  const forgottenIds = new ForgottenIdsReader(sources);
  let cursor: string | 'start' = filter.fromPosition ?? 'start';
  let yielded = 0;
  const limit = options.limit ?? Number.POSITIVE_INFINITY;
  const aborted = () => options.signal?.aborted === true;
  while (yielded < limit && !aborted()) {
    const page = await readPage(sources, cursor, storeFilter);
    // Brought up to date for every page: a forgetting that completes while following applies at once.
    const forgotten = await forgottenIds.current();
    for (const e of page) {
      if (!wanted(e)) continue;
      yield redactForgotten(e, forgotten);
      yielded += 1;
      if (yielded >= limit || aborted()) return;
    }
    if (page.length > 0) cursor = page[page.length - 1].metadata.globalPosition;
    if (page.length === PAGE) continue;
    if (options.follow !== true) return;
    await pause(options.pollMs ?? DEFAULT_POLL_MS, options.signal);
  }
}

async function readPage(
  sources: InspectionSources,
  fromPosition: string | 'start',
  filter: EventFilter,
): Promise<EventEnvelope[]> {
  try {
    return await sources.events.readAll({ fromPosition, filter, maxCount: PAGE });
  } catch (error) {
    // The store refuses a position it did not produce: the operator's --from was wrong.
    if (error instanceof ValidationError && fromPosition !== 'start')
      throw new BadPositionError(fromPosition, 'not a position of this event store');
    throw error;
  }
}

/** Waits `ms`, or less when the signal aborts; never rejects. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted === true) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
