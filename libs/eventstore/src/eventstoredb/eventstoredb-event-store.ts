import { randomUUID } from 'node:crypto';
import {
  BACKWARDS,
  END,
  FORWARDS,
  START,
  type AllStreamResolvedEvent,
  type JSONEventData,
  type Position as ClientPosition,
  type ReadRevision,
} from '@eventstore/db-client';
import {
  ConcurrencyError,
  ConfigError,
  StoreUnavailableError,
  type EventEnvelope,
  type ExpectedRevision,
  type NewEvent,
} from '@lomo/contracts';
import { validateAppendRequest, validateImportRequest } from '../append-request';
import { assertMaxCount, assertReadStreamOptions } from '../read-request';
import type {
  AppendResult,
  EventHandler,
  EventStore,
  ImportedEvent,
  Position,
  ReadAllOptions,
  ReadStreamOptions,
  SubscribeOptions,
  Subscription,
} from '../event-store.port';
import { CatchUpSubscription, type CatchUpSource, type OwnEvent } from './catch-up-subscription';
import { connectEsdbClient, type EsdbClient } from './esdb-client';
import { comparePositions, formatPosition, isAfter, parseFromPosition, parsePosition } from './esdb-position';
import { fromClientRevision, toClientExpectedRevision, toClientStreamRead } from './esdb-revision';
import { appendIdOf, decodeEvent, encodeEvent, type RecordedLike } from './event-codec';
import { compileMatcher } from './event-matcher';
import { StoreFailureError } from './eventstoredb-errors';
import { isStreamNotFound, mapClientError, type ErrorContext } from './map-client-error';
import { StreamNames } from './stream-names';

export const DEFAULT_ESDB_BATCH_SIZE = 500;
export const DEFAULT_IDLE_CHECKPOINT_MS = 250;
/** Events of $all per read request; readAll and the head search page through $all with it. */
const PAGE = 512;
/** Stream metadata key under which a subscriber's checkpoint is kept. */
const CHECKPOINT_KEY = 'lomoCheckpoint';

export interface EventStoreDbEventStoreOptions {
  /** e.g. `esdb://localhost:2113?tls=false`. Required unless `client` is given. */
  connectionString?: string;
  /** A client to use instead of connecting (tests pass an in-memory fake). The store disposes it. */
  client?: EsdbClient;
  /** Keeps this store's streams apart from others on the same server (see StreamNames). */
  streamNamespace?: string;
  /** Subscriptions: checkpoint cadence and buffer size when the caller gives no batchSize. */
  defaultBatchSize?: number;
  idleCheckpointMs?: number;
}

/**
 * EventStore on EventStoreDB / KurrentDB through `@eventstore/db-client`. It is not exercised
 * against a real server on this project's machines (see the README); the shared contract suite
 * runs on it whenever EVENTSTORE_URL is set, and against an in-memory fake of the client always.
 *
 * Differences from the SQLite adapter, all from the server's design:
 * - Idempotence is guaranteed only under an exact expectation (a revision or 'no_stream'); under
 *   'any' / 'stream_exists' the server recognises a repeat only while the ids are in its cache of
 *   recent events, and it never rejects an id already used in another stream: that append writes.
 * - Positions are "<commit>:<prepare>" (two unsigned 64-bit numbers), not a counter.
 * - Checkpoints live in the metadata of a per-subscriber holder stream (`lomo-checkpoint@<id>`):
 *   one call per save, invisible to $all readers (metadata events are system events), and the
 *   server keeps only the latest one.
 *
 * On a secured cluster the user needs read access to $all (admins only by default) and metadata
 * write access to the checkpoint holders; a refusal surfaces as STORE_ACCESS_DENIED.
 */
export class EventStoreDbEventStore implements EventStore {
  private readonly client: EsdbClient;
  private readonly names: StreamNames;
  private readonly subscriptions = new Set<CatchUpSubscription>();
  private readonly source: CatchUpSource;
  private readonly defaultBatchSize: number;
  private readonly idleCheckpointMs: number;
  private closing: Promise<void> | undefined;

  constructor(options: EventStoreDbEventStoreOptions) {
    this.names = new StreamNames(options.streamNamespace);
    this.client = clientFrom(options);
    this.defaultBatchSize = options.defaultBatchSize ?? DEFAULT_ESDB_BATCH_SIZE;
    this.idleCheckpointMs = options.idleCheckpointMs ?? DEFAULT_IDLE_CHECKPOINT_MS;
    this.source = {
      head: () => this.headOf(),
      loadCheckpoint: (id) => this.loadCheckpoint(id),
      storeCheckpoint: (id, position) => this.storeCheckpoint(id, position),
      openFeed: (after) =>
        this.client.subscribeToAll({ fromPosition: after ?? START, filter: this.names.serverFilter() }),
      ownEvent: (resolved) => this.ownEvent(resolved),
      decode: (event) => decodeEvent(event.streamId, event.recorded),
      ownEventsAfter: (after, limit) => this.ownEventsAfter(after, limit),
      mapError: (error) => mapClientError(error),
    };
  }

  /**
   * Every event is validated before anything is sent. The server answers a fresh write and a
   * repeat it recognises alike (and older servers leave the position out of a repeat's answer),
   * so the appended events are read back from the leader: that gives the exact position of the
   * last one and, through the append id stored with them, whether this call wrote them. A call
   * that fails as unavailable may still have been written; repeating it under the same exact
   * expectation is then recognised as a repeat.
   */
  async append(
    streamId: string,
    events: readonly NewEvent[],
    expectedRevision: ExpectedRevision,
  ): Promise<AppendResult> {
    this.assertOpen();
    const versions = validateAppendRequest(streamId, events, expectedRevision);
    const appendId = randomUUID();
    return this.write(
      streamId,
      events,
      events.map((event, i) => encodeEvent(event, versions[i], appendId)),
      expectedRevision,
      appendId,
    );
  }

  /** The operator import's append: each event keeps its exported `occurredAt` in its metadata. */
  async appendImported(
    streamId: string,
    events: readonly ImportedEvent[],
    expectedRevision: ExpectedRevision,
  ): Promise<AppendResult> {
    this.assertOpen();
    const versions = validateImportRequest(streamId, events, expectedRevision);
    const appendId = randomUUID();
    return this.write(
      streamId,
      events,
      events.map((event, i) => encodeEvent(event, versions[i], appendId, event.occurredAt)),
      expectedRevision,
      appendId,
    );
  }

  private async write(
    streamId: string,
    events: readonly NewEvent[],
    data: JSONEventData[],
    expectedRevision: ExpectedRevision,
    appendId: string,
  ): Promise<AppendResult> {
    const context: ErrorContext = { streamId, expected: expectedRevision };
    const physical = this.names.physical(streamId);
    let last: bigint;
    try {
      const result = await this.client.appendToStream(physical, data, {
        expectedRevision: toClientExpectedRevision(expectedRevision),
      });
      last = result.nextExpectedRevision;
    } catch (error) {
      throw mapClientError(error, context);
    }
    const stored = await this.readRecorded(
      physical,
      { direction: BACKWARDS, fromRevision: last, maxCount: events.length, requiresLeader: true },
      context,
    );
    stored.reverse();
    const first = last - BigInt(events.length - 1);
    const sameEvents =
      stored.length === events.length &&
      stored.every((e, i) => e.id === events[i].eventId && e.revision === first + BigInt(i));
    if (!sameEvents) {
      // Under 'any' the server also takes ids found anywhere in the stream as a repeat; the port
      // accepts them only in order and contiguous, so anything else is a conflict (nothing was written).
      throw new ConcurrencyError(streamId, expectedRevision, await this.streamRevision(streamId));
    }
    const lastEvent = stored[stored.length - 1];
    if (lastEvent.position === undefined) throw missingPosition(streamId);
    return {
      streamId,
      nextExpectedRevision: fromClientRevision(last),
      position: formatPosition(lastEvent.position),
      written: stored.every((e) => appendIdOf(e) === appendId),
    };
  }

  async readStream(streamId: string, options: ReadStreamOptions = {}): Promise<EventEnvelope[]> {
    this.assertOpen();
    assertReadStreamOptions(options);
    if (options.maxCount === 0) return [];
    const recorded = await this.readRecorded(this.names.physical(streamId), toClientStreamRead(options), { streamId });
    return recorded.filter((e) => !e.type.startsWith('$')).map((e) => decodeEvent(streamId, e));
  }

  async streamRevision(streamId: string): Promise<number | 'no_stream'> {
    this.assertOpen();
    const [last] = await this.readRecorded(
      this.names.physical(streamId),
      { direction: BACKWARDS, fromRevision: END, maxCount: 1 },
      { streamId },
    );
    return last === undefined ? 'no_stream' : fromClientRevision(last.revision);
  }

  /**
   * Pages through $all forwards and filters here: this client's readAll has no server-side
   * filter (it always sends "no filter"). Subscriptions do filter on the server.
   */
  async readAll(options: ReadAllOptions = {}): Promise<EventEnvelope[]> {
    this.assertOpen();
    assertMaxCount(options.maxCount);
    let cursor = parseFromPosition(options.fromPosition);
    const matches = compileMatcher(options.filter);
    let remaining = options.maxCount ?? Number.POSITIVE_INFINITY;
    const envelopes: EventEnvelope[] = [];
    while (remaining > 0) {
      const page = await this.readAllPage(FORWARDS, cursor, PAGE);
      let moved = false;
      for (const resolved of page) {
        const position = resolved.event?.position;
        if (position === undefined || !isAfter(position, cursor)) continue;
        cursor = position;
        moved = true;
        const own = this.ownEvent(resolved);
        if (own === undefined || !matches(own.streamId, own.recorded.type)) continue;
        envelopes.push(decodeEvent(own.streamId, own.recorded));
        remaining -= 1;
        if (remaining === 0) break;
      }
      if (page.length < PAGE || !moved) break;
    }
    return envelopes;
  }

  async headPosition(): Promise<Position | undefined> {
    this.assertOpen();
    const head = await this.headOf();
    return head === undefined ? undefined : formatPosition(head);
  }

  subscribeToAll(options: SubscribeOptions, handler: EventHandler): Subscription {
    this.assertOpen();
    const subscription = new CatchUpSubscription(
      this.source,
      options,
      handler,
      { defaultBatchSize: this.defaultBatchSize, idleCheckpointMs: this.idleCheckpointMs },
      (ended) => this.subscriptions.delete(ended),
    );
    this.subscriptions.add(subscription);
    return subscription;
  }

  async getCheckpoint(subscriberId: string): Promise<Position | undefined> {
    this.assertOpen();
    const position = await this.loadCheckpoint(subscriberId);
    return position === undefined ? undefined : formatPosition(position);
  }

  async saveCheckpoint(subscriberId: string, position: Position): Promise<void> {
    this.assertOpen();
    await this.storeCheckpoint(subscriberId, parsePosition(position));
  }

  /** Stops every subscription (each saves its checkpoint), then disposes the client. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      await Promise.all([...this.subscriptions].map((s) => s.stop()));
      await this.client.dispose();
    })();
    return this.closing;
  }

  private async loadCheckpoint(subscriberId: string): Promise<ClientPosition | undefined> {
    const holder = this.names.checkpointHolder(subscriberId);
    let value: unknown;
    try {
      value = (await this.client.getStreamMetadata(holder)).metadata?.[CHECKPOINT_KEY];
    } catch (error) {
      throw mapClientError(error);
    }
    if (value === undefined) return undefined;
    if (typeof value !== 'string')
      throw new StoreFailureError(`Checkpoint of ${subscriberId} is unreadable`, 'unknown');
    return parsePosition(value, `checkpoint of ${subscriberId}`);
  }

  private async storeCheckpoint(subscriberId: string, position: ClientPosition): Promise<void> {
    const holder = this.names.checkpointHolder(subscriberId);
    try {
      await this.client.setStreamMetadata(holder, { [CHECKPOINT_KEY]: formatPosition(position) });
    } catch (error) {
      throw mapClientError(error);
    }
  }

  /** The store's last event, found by paging $all backwards past system and foreign events. */
  private async headOf(): Promise<ClientPosition | undefined> {
    let before: ClientPosition | undefined;
    for (;;) {
      const page = await this.readAllPage(BACKWARDS, before, PAGE);
      let moved = false;
      for (const resolved of page) {
        const position = resolved.event?.position;
        if (position === undefined || (before !== undefined && comparePositions(position, before) >= 0)) continue;
        before = position;
        moved = true;
        if (this.ownEvent(resolved) !== undefined) return position;
      }
      if (page.length < PAGE || !moved) return undefined;
    }
  }

  private async ownEventsAfter(after: ClientPosition | undefined, limit: number): Promise<OwnEvent[]> {
    const own: OwnEvent[] = [];
    for (const resolved of await this.readAllPage(FORWARDS, after, limit)) {
      const event = this.ownEvent(resolved);
      if (event !== undefined && isAfter(event.position, after)) own.push(event);
    }
    return own;
  }

  private ownEvent(resolved: AllStreamResolvedEvent): OwnEvent | undefined {
    const recorded = resolved.event;
    if (recorded === undefined || recorded.type.startsWith('$')) return undefined;
    const streamId = this.names.logical(recorded.streamId);
    return streamId === undefined ? undefined : { streamId, position: recorded.position, recorded };
  }

  /** One page of $all; the server includes an event sitting exactly at `from`, callers skip it. */
  private async readAllPage(
    direction: typeof FORWARDS | typeof BACKWARDS,
    from: ClientPosition | undefined,
    maxCount: number,
  ): Promise<AllStreamResolvedEvent[]> {
    const page: AllStreamResolvedEvent[] = [];
    try {
      const fromPosition = from ?? (direction === FORWARDS ? START : END);
      for await (const resolved of this.client.readAll({ direction, fromPosition, maxCount })) page.push(resolved);
    } catch (error) {
      throw mapClientError(error);
    }
    return page;
  }

  /** Events of one stream; an absent stream reads as none. */
  private async readRecorded(
    streamName: string,
    options: {
      direction: typeof FORWARDS | typeof BACKWARDS;
      fromRevision: ReadRevision;
      maxCount: number;
      requiresLeader?: boolean;
    },
    context: ErrorContext,
  ): Promise<RecordedLike[]> {
    const recorded: RecordedLike[] = [];
    try {
      for await (const resolved of this.client.readStream(streamName, options)) {
        if (resolved.event !== undefined) recorded.push(resolved.event);
      }
    } catch (error) {
      if (isStreamNotFound(error)) return [];
      throw mapClientError(error, context);
    }
    return recorded;
  }

  private assertOpen(): void {
    if (this.closing !== undefined) throw new StoreUnavailableError('The EventStoreDB event store is closed');
  }
}

function clientFrom(options: EventStoreDbEventStoreOptions): EsdbClient {
  if (options.client !== undefined) return options.client;
  if (options.connectionString !== undefined) return connectEsdbClient(options.connectionString);
  throw new ConfigError('EventStoreDB needs a connection string', [
    { variable: 'EVENTSTORE_URL', message: 'required' },
  ]);
}

function missingPosition(streamId: string): StoreFailureError {
  return new StoreFailureError(
    `EventStoreDB sent no position for an event of ${streamId} (EventStoreDB 22.6 or later is required)`,
    'unknown',
  );
}
