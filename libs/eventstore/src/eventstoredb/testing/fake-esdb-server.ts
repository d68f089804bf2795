import { PassThrough } from 'node:stream';
import { randomUUID } from 'node:crypto';
import {
  ANY,
  END,
  NO_STREAM,
  START,
  STREAM_EXISTS,
  StreamNotFoundError,
  UnavailableError,
  WrongExpectedVersionError,
  type AllStreamRecordedEvent,
  type AllStreamResolvedEvent,
  type AppendExpectedRevision,
  type AppendResult,
  type Filter,
  type GetStreamMetadataResult,
  type JSONEventData,
  type Position,
  type ReadAllOptions,
  type ReadStreamOptions,
  type ResolvedEvent,
  type StreamMetadata,
  type SubscribeToAllOptions,
} from '@eventstore/db-client';
import type { EsdbClient, LiveSubscription } from '../esdb-client';

export interface FakeEsdbServerOptions {
  /**
   * Reject an event id already stored in another stream. A real server does not (it writes the
   * event); the shared contract suite asserts the SQLite behaviour, so its run on the fake turns
   * this on. Off by default: the fake otherwise follows the server.
   */
  uniqueEventIdsAcrossStreams?: boolean;
  /** Write a `$>` link per event to `$ce-<category>`, as the standard projections do. */
  projections?: boolean;
}

interface Stored {
  streamName: string;
  id: string;
  revision: bigint;
  type: string;
  data: unknown;
  metadata: unknown;
  created: Date;
  position: Position;
}

/** The first log position: past 2^53, so every position is a bigint no Number can hold exactly. */
const FIRST_POSITION = (1n << 53n) + 4_096n;
type Matcher = (event: Stored) => boolean;

/**
 * An in-memory stand-in for one EventStoreDB node, at the level of `@eventstore/db-client`: the
 * same calls, the client's own error classes, and the server's documented behaviour where the
 * adapter depends on it: 0-based revisions; expected-revision checks and idempotent repeats as
 * the server's commit check decides them (exact expectations checked event by event, 'any' and
 * 'stream_exists' by id anywhere in the stream, a partial match refused as a wrong expected
 * version); repeats answered with the original revisions and no position (as older servers
 * do; newer ones send the original position); a fresh append answered with its first event's position, not the last one's; $all
 * reads inclusive of an event sitting at the given position; catch-up subscriptions exclusive of
 * it, server-side filters, stream metadata stored as `$metadata` events in `$$` streams, and a
 * system event in $all from the start. It is what the adapter is tested against when no server
 * is at hand; it proves nothing about a real server.
 */
export class FakeEsdbServer {
  private readonly log: Stored[] = [];
  private readonly streams = new Map<string, Stored[]>();
  private readonly idIndex = new Map<string, { streamName: string; revision: bigint }>();
  private readonly live = new Set<FakeSubscription>();
  private nextPosition = FIRST_POSITION;
  private faults: Error[] = [];

  constructor(private readonly options: FakeEsdbServerOptions = {}) {
    this.write('$stats-127.0.0.1:2113', [{ id: randomUUID(), type: '$statsCollected', data: {}, metadata: {} }]);
  }

  client(): FakeEsdbClient {
    return new FakeEsdbClient(this);
  }

  /** The next call of any client fails with `error` (a client error class instance). */
  failNextCall(error: Error): void {
    this.faults.push(error);
  }

  /** Every live subscription fails with `error`, as when the connection drops. */
  dropSubscriptions(error: Error): void {
    for (const subscription of [...this.live]) subscription.fail(error);
  }

  /** Writes events no adapter validated (other applications, older versions of the code). */
  writeRaw(streamName: string, events: Array<{ id?: string; type: string; data: unknown; metadata: unknown }>): void {
    this.write(
      streamName,
      events.map((e) => ({ ...e, id: e.id ?? randomUUID() })),
    );
  }

  takeFault(): void {
    const fault = this.faults.shift();
    if (fault !== undefined) throw fault;
  }

  append(streamName: string, events: JSONEventData[], expected: AppendExpectedRevision): AppendResult {
    this.takeFault();
    const stream = this.streams.get(streamName) ?? [];
    const current = BigInt(stream.length) - 1n;
    const conflict = () =>
      new WrongExpectedVersionError(undefined, {
        streamName,
        expected,
        current: current < 0n ? NO_STREAM : current,
      });
    if (expected === STREAM_EXISTS && current < 0n) throw conflict();
    if (this.options.uniqueEventIdsAcrossStreams) {
      for (const event of events) {
        const found = this.idIndex.get(event.id);
        if (found !== undefined && found.streamName !== streamName) throw conflict();
      }
    }
    const repeat = this.repeatOf(streamName, stream, current, events, expected);
    if (repeat === 'conflict') throw conflict();
    if (repeat !== undefined) return { success: true, nextExpectedRevision: repeat, position: undefined };
    const exact = expected === NO_STREAM ? -1n : typeof expected === 'bigint' ? expected : undefined;
    if (exact !== undefined && exact !== current) throw conflict();
    const written = this.write(streamName, events);
    if (this.options.projections) this.project(written);
    return { success: true, nextExpectedRevision: written[written.length - 1].revision, position: written[0].position };
  }

  readStream(streamName: string, options: ReadStreamOptions): ResolvedEvent[] {
    this.takeFault();
    const stream = this.streams.get(streamName);
    if (stream === undefined || stream.length === 0) throw new StreamNotFoundError(undefined, streamName);
    const count = Number(options.maxCount ?? Number.MAX_SAFE_INTEGER);
    const from = options.fromRevision ?? (options.direction === 'backwards' ? END : START);
    const last = stream.length - 1;
    if (options.direction === 'backwards') {
      const start = from === END ? last : from === START ? 0 : Math.min(Number(from), last);
      return stream
        .slice(Math.max(0, start - count + 1), start + 1)
        .reverse()
        .map((e) => ({ event: recorded(e) }));
    }
    const start = from === START ? 0 : from === END ? stream.length : Number(from);
    return stream.slice(start, start + count).map((e) => ({ event: recorded(e) }));
  }

  readAll(options: ReadAllOptions): AllStreamResolvedEvent[] {
    this.takeFault();
    const count = Number(options.maxCount ?? Number.MAX_SAFE_INTEGER);
    const from = options.fromPosition ?? (options.direction === 'backwards' ? END : START);
    const events =
      options.direction === 'backwards'
        ? this.log.filter((e) => from === END || (from !== START && compare(e.position, from) <= 0)).reverse()
        : this.log.filter((e) => from === START || (from !== END && compare(e.position, from) >= 0));
    return events.slice(0, count).map((e) => ({ event: recorded(e) }));
  }

  subscribe(options: SubscribeToAllOptions, ended: (s: FakeSubscription) => void): FakeSubscription {
    this.takeFault();
    const matches = compileFilter(options.filter);
    const subscription = new FakeSubscription(matches, (s) => {
      this.live.delete(s);
      ended(s);
    });
    const from = options.fromPosition ?? START;
    // History and the switch to live happen in one turn, so no append falls between them.
    setImmediate(() => {
      if (subscription.cancelled) return;
      for (const event of this.log) {
        if (from === END) break;
        if (from === START || compare(event.position, from) > 0) subscription.offer(event);
      }
      this.live.add(subscription);
    });
    return subscription;
  }

  metadataOf(streamName: string): GetStreamMetadataResult {
    this.takeFault();
    const meta = this.streams.get(`$$${streamName}`);
    const last = meta?.[meta.length - 1];
    if (last === undefined) return { streamName };
    return { streamName, metadata: structuredClone(last.data) as StreamMetadata, metastreamRevision: last.revision };
  }

  setMetadata(streamName: string, metadata: StreamMetadata): AppendResult {
    this.takeFault();
    const [written] = this.write(`$$${streamName}`, [
      { id: randomUUID(), type: '$metadata', data: metadata, metadata: {} },
    ]);
    return { success: true, nextExpectedRevision: written.revision, position: written.position };
  }

  /** The server's commit check for a call that may repeat an earlier one (see the class comment). */
  private repeatOf(
    streamName: string,
    stream: Stored[],
    current: bigint,
    events: JSONEventData[],
    expected: AppendExpectedRevision,
  ): bigint | 'conflict' | undefined {
    if (expected === ANY || expected === STREAM_EXISTS) {
      let last: bigint | undefined;
      for (const [i, event] of events.entries()) {
        const found = this.idIndex.get(event.id);
        if (found === undefined || found.streamName !== streamName) return i === 0 ? undefined : 'conflict';
        last = found.revision;
      }
      return last;
    }
    const exact = expected === NO_STREAM ? -1n : expected;
    if (exact >= current) return undefined;
    for (const [i, event] of events.entries()) {
      const revision = exact + 1n + BigInt(i);
      if (stream[Number(revision)]?.id !== event.id) return 'conflict';
    }
    return exact + BigInt(events.length);
  }

  private write(
    streamName: string,
    events: Array<{ id: string; type: string; data: unknown; metadata: unknown }>,
  ): Stored[] {
    const stream = this.streams.get(streamName) ?? [];
    this.streams.set(streamName, stream);
    const written = events.map((event) => {
      const position = { commit: this.nextPosition, prepare: this.nextPosition };
      this.nextPosition += 97n + BigInt(JSON.stringify(event.data ?? null).length);
      const stored: Stored = {
        streamName,
        id: event.id,
        revision: BigInt(stream.length),
        type: event.type,
        data: structuredClone(event.data),
        metadata: structuredClone(event.metadata),
        created: new Date(),
        position,
      };
      stream.push(stored);
      this.log.push(stored);
      this.idIndex.set(stored.id, { streamName, revision: stored.revision });
      return stored;
    });
    for (const subscription of this.live) for (const event of written) subscription.offer(event);
    return written;
  }

  private project(written: Stored[]): void {
    for (const event of written) {
      const category = event.streamName.slice(0, event.streamName.lastIndexOf('-'));
      this.write(`$ce-${category}`, [
        { id: randomUUID(), type: '$>', data: `${event.revision}@${event.streamName}`, metadata: {} },
      ]);
    }
  }
}

/** A subscription as the client returns it: a Readable of resolved events with `unsubscribe`. */
export class FakeSubscription extends PassThrough implements LiveSubscription {
  cancelled = false;

  constructor(
    private readonly matches: Matcher,
    private readonly ended: (s: FakeSubscription) => void,
  ) {
    super({ objectMode: true });
  }

  offer(event: Stored): void {
    if (!this.cancelled && this.matches(event)) this.write({ event: recorded(event) });
  }

  fail(error: Error): void {
    this.closeOnce();
    this.emit('error', error);
  }

  async unsubscribe(): Promise<void> {
    if (this.closeOnce()) this.end();
  }

  private closeOnce(): boolean {
    if (this.cancelled) return false;
    this.cancelled = true;
    this.ended(this);
    return true;
  }
}

/** One connection to the fake server; `dispose` ends its subscriptions, as the client does. */
export class FakeEsdbClient implements EsdbClient {
  private readonly subscriptions = new Set<FakeSubscription>();
  private disposed = false;

  constructor(private readonly server: FakeEsdbServer) {}

  async appendToStream(
    streamName: string,
    events: JSONEventData[],
    options: { expectedRevision: AppendExpectedRevision },
  ): Promise<AppendResult> {
    this.assertOpen();
    await Promise.resolve();
    return this.server.append(streamName, events, options.expectedRevision);
  }

  async *readStream(streamName: string, options: ReadStreamOptions): AsyncIterable<ResolvedEvent> {
    this.assertOpen();
    await Promise.resolve();
    yield* this.server.readStream(streamName, options);
  }

  async *readAll(options: ReadAllOptions): AsyncIterable<AllStreamResolvedEvent> {
    this.assertOpen();
    await Promise.resolve();
    yield* this.server.readAll(options);
  }

  subscribeToAll(options: SubscribeToAllOptions): LiveSubscription {
    this.assertOpen();
    const subscription = this.server.subscribe(options, (s) => this.subscriptions.delete(s));
    this.subscriptions.add(subscription);
    return subscription;
  }

  async getStreamMetadata(streamName: string): Promise<GetStreamMetadataResult> {
    this.assertOpen();
    await Promise.resolve();
    return this.server.metadataOf(streamName);
  }

  async setStreamMetadata(streamName: string, metadata: StreamMetadata): Promise<AppendResult> {
    this.assertOpen();
    await Promise.resolve();
    return this.server.setMetadata(streamName, metadata);
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    await Promise.all([...this.subscriptions].map((s) => s.unsubscribe()));
  }

  private assertOpen(): void {
    if (this.disposed) throw new UnavailableError(undefined, 'client disposed');
  }
}

function recorded(event: Stored): AllStreamRecordedEvent {
  return {
    streamId: event.streamName,
    id: event.id,
    revision: event.revision,
    type: event.type,
    isJson: true,
    data: structuredClone(event.data) as Record<string, unknown>,
    metadata: structuredClone(event.metadata) as Record<string, unknown>,
    created: event.created,
    position: { ...event.position },
  };
}

function compare(a: Position, b: Position): number {
  if (a.commit !== b.commit) return a.commit < b.commit ? -1 : 1;
  return a.prepare === b.prepare ? 0 : a.prepare < b.prepare ? -1 : 1;
}

function compileFilter(filter: Filter | undefined): Matcher {
  if (filter === undefined) return () => true;
  const field = (e: Stored) => (filter.filterOn === 'streamName' ? e.streamName : e.type);
  if ('regex' in filter) {
    const regex = new RegExp(filter.regex);
    return (e) => regex.test(field(e));
  }
  return (e) => filter.prefixes.some((p) => field(e).startsWith(p));
}
