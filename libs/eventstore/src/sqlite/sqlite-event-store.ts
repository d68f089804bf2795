import type Database from 'better-sqlite3';
import {
  ConcurrencyError,
  StoreUnavailableError,
  type EventEnvelope,
  type ExpectedRevision,
  type NewEvent,
} from '@lomo/contracts';
import {
  actualRevision,
  expectationHolds,
  impliedFirstRevision,
  validateAppendRequest,
  validateImportRequest,
} from '../append-request';
import { assertMaxCount, assertReadStreamOptions } from '../read-request';
import type {
  AppendResult,
  EventBatchHandler,
  EventHandler,
  EventStore,
  ImportedEvent,
  Position,
  ReadAllOptions,
  ReadStreamOptions,
  SubscribeOptions,
  Subscription,
} from '../event-store.port';
import { rowToEnvelope, type EventRow } from './event-row';
import { compileFilter, type FilterSql } from './event-filter-sql';
import { PollingSubscription, type EventBatch, type SubscriptionSource } from './polling-subscription';
import { isDuplicateEventIdError, mapSqliteError } from './sqlite-errors';
import { formatPosition, parseFromPosition, parsePosition } from './sqlite-position';
import {
  DEFAULT_BUSY_TIMEOUT_MS,
  DEFAULT_SYNCHRONOUS,
  openEventStoreDatabase,
  type SynchronousMode,
} from './sqlite-schema';
import { prepareStatements, ReadAllStatements, type Statements } from './sqlite-statements';

export const DEFAULT_POLL_INTERVAL_MS = 25;
export const DEFAULT_SUBSCRIPTION_BATCH_SIZE = 500;
/** readAll pages so that no single read transaction stays open long (the WAL must stay small). */
const READ_ALL_PAGE = 4_096;
const NO_LIMIT = -1;

/** Fault injection for crash and contention tests. Absent in production: the plain path is used. */
export interface SqliteEventStoreHooks {
  /** Runs inside the append transaction, after the inserts and before COMMIT. */
  afterBeginBeforeCommit?: (append: { streamId: string; eventIds: readonly string[] }) => void;
}

export interface SqliteEventStoreOptions {
  filename: string;
  synchronous?: SynchronousMode;
  busyTimeoutMs?: number;
  /** How often subscriptions look for appends made by other connections. */
  pollIntervalMs?: number;
  now?: () => Date;
  hooks?: SqliteEventStoreHooks;
}

interface PreparedRow {
  eventId: string;
  type: string;
  schemaVersion: number;
  data: string;
  metadata: string;
  /** Only for `appendImported`: the event's own time; otherwise the append's (the store's clock). */
  occurredAt?: string;
}

type AppendTransaction = (
  streamId: string,
  rows: readonly PreparedRow[],
  expected: ExpectedRevision,
  occurredAt: string,
) => AppendResult;

/** An append waiting for the group commit (see `flushAppends`). */
interface QueuedAppend {
  streamId: string;
  rows: readonly PreparedRow[];
  expected: ExpectedRevision;
  occurredAt: string;
  resolve(result: AppendResult): void;
  reject(error: unknown): void;
}

type Outcome = { result: AppendResult } | { error: unknown };

/**
 * EventStore on one SQLite file (WAL). Each instance owns one connection; any number of
 * instances, in this process or others, may share the file. Appends take the write lock with
 * BEGIN IMMEDIATE (waiting up to the busy timeout), so revisions and global positions are
 * decided under it; reads are single statements or short read transactions.
 */
export class SqliteEventStore implements EventStore, SubscriptionSource {
  private readonly db: Database.Database;
  private readonly statements: Statements;
  private readonly readAllStatements: ReadAllStatements;
  private readonly appendTransaction: AppendTransaction;
  private readonly groupTransaction: (queue: readonly QueuedAppend[]) => Outcome[];
  // Mutated, never reassigned: wrappers made with Object.create(store) (fault injection in tests
  // and drills) call these methods with `this` = the wrapper, and must share the one queue.
  private readonly queued: QueuedAppend[] = [];
  private readonly readBatchTransaction: (after: number, filter: FilterSql, limit: number) => EventBatch;
  private readonly now: () => Date;
  private readonly pollIntervalMs: number;
  private readonly appendListeners = new Set<() => void>();
  private readonly subscriptions = new Set<PollingSubscription>();
  private closing: Promise<void> | undefined;

  constructor(options: SqliteEventStoreOptions) {
    this.db = openEventStoreDatabase(options.filename, {
      synchronous: options.synchronous ?? DEFAULT_SYNCHRONOUS,
      busyTimeoutMs: options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS,
    });
    this.now = options.now ?? (() => new Date());
    this.pollIntervalMs = options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS;
    this.statements = prepareStatements(this.db);
    this.readAllStatements = new ReadAllStatements(this.db);
    const hook = options.hooks?.afterBeginBeforeCommit;
    const body: AppendTransaction =
      hook === undefined
        ? (streamId, rows, expected, occurredAt) => this.appendRows(streamId, rows, expected, occurredAt)
        : (streamId, rows, expected, occurredAt) => {
            const result = this.appendRows(streamId, rows, expected, occurredAt);
            if (result.written) hook({ streamId, eventIds: rows.map((r) => r.eventId) });
            return result;
          };
    const appendTransaction = this.db.transaction(body);
    this.appendTransaction = (...args) => appendTransaction.immediate(...args);
    // Called inside the group's transaction, the same function runs as a savepoint: an append
    // that fails rolls back alone and the others still commit.
    const group = this.db.transaction((queue: readonly QueuedAppend[]) =>
      queue.map<Outcome>((q) => {
        try {
          return { result: appendTransaction(q.streamId, q.rows, q.expected, q.occurredAt) };
        } catch (error) {
          return { error };
        }
      }),
    );
    this.groupTransaction = (queue) => group.immediate(queue);
    // Deferred: the batch and the head come from one read snapshot, and no write lock is taken.
    const readBatchTransaction = this.db.transaction((after: number, filter: FilterSql, limit: number) =>
      this.readBatchRows(after, filter, limit),
    );
    this.readBatchTransaction = (...args) => readBatchTransaction.deferred(...args);
  }

  async append(
    streamId: string,
    events: readonly NewEvent[],
    expectedRevision: ExpectedRevision,
  ): Promise<AppendResult> {
    this.assertOpen();
    const versions = validateAppendRequest(streamId, events, expectedRevision);
    return this.enqueue(
      streamId,
      events.map((event, i) => prepareRow(event, versions[i])),
      expectedRevision,
    );
  }

  /** The operator import's append: each event keeps the `occurredAt` it was exported with. */
  async appendImported(
    streamId: string,
    events: readonly ImportedEvent[],
    expectedRevision: ExpectedRevision,
  ): Promise<AppendResult> {
    this.assertOpen();
    const versions = validateImportRequest(streamId, events, expectedRevision);
    const rows = events.map((event, i) => ({ ...prepareRow(event, versions[i]), occurredAt: event.occurredAt }));
    return this.enqueue(streamId, rows, expectedRevision);
  }

  private enqueue(streamId: string, rows: readonly PreparedRow[], expectedRevision: ExpectedRevision) {
    return new Promise<AppendResult>((resolve, reject) => {
      const occurredAt = this.now().toISOString();
      if (this.queued.push({ streamId, rows, expected: expectedRevision, occurredAt, resolve, reject }) === 1)
        // After the microtask queue has drained: every promise chain that can reach an append
        // without I/O has done so (reads here are synchronous), so concurrent callers share it.
        process.nextTick(() => this.flushAppends());
    });
  }

  /**
   * Group commit: the appends made before the process next waits (a notice fan-out's, several
   * workers') commit in one transaction, so one fsync makes them all durable. Each append is a
   * savepoint of its own and keeps its own outcome (a conflict refuses that append only), and each
   * caller hears only after the commit, so nothing is acknowledged before it is durable. One
   * append alone takes the plain path.
   */
  private flushAppends(): void {
    const queue = this.queued.splice(0);
    if (this.closing !== undefined) {
      for (const q of queue) q.reject(new StoreUnavailableError('The SQLite event store is closed'));
      return;
    }
    let outcomes: Outcome[];
    if (queue.length === 1) outcomes = [this.appendOne(queue[0])];
    else {
      try {
        outcomes = this.groupTransaction(queue);
      } catch {
        // The group's own transaction failed (nothing of it committed): each append on its own,
        // so each caller gets its own error.
        outcomes = queue.map((q) => this.appendOne(q));
      }
    }
    let written = false;
    for (let i = 0; i < queue.length; i += 1) {
      const q = queue[i];
      const outcome = outcomes[i];
      if ('result' in outcome) {
        written ||= outcome.result.written;
        q.resolve(outcome.result);
        continue;
      }
      try {
        // An id already stored: its savepoint was rolled back; decide repeat vs conflict.
        if (isDuplicateEventIdError(outcome.error)) q.resolve(this.repeatOrConflict(q.streamId, q.rows, q.expected));
        else q.reject(mapSqliteError(outcome.error));
      } catch (error) {
        q.reject(error);
      }
    }
    if (written) for (const listener of this.appendListeners) listener();
  }

  private appendOne(q: QueuedAppend): Outcome {
    try {
      return { result: this.appendTransaction(q.streamId, q.rows, q.expected, q.occurredAt) };
    } catch (error) {
      return { error };
    }
  }

  async readStream(streamId: string, options: ReadStreamOptions = {}): Promise<EventEnvelope[]> {
    this.assertOpen();
    assertReadStreamOptions(options);
    const limit = options.maxCount ?? NO_LIMIT;
    const from = options.fromRevision;
    try {
      if (options.direction === 'backwards') {
        const start = from === undefined || from === 'end' ? Number.MAX_SAFE_INTEGER : from === 'start' ? 0 : from;
        return this.statements.streamBackwards.all(streamId, start, limit).map(rowToEnvelope);
      }
      const start = from === undefined || from === 'start' ? 0 : from === 'end' ? this.lastRevision(streamId) : from;
      return this.statements.streamForwards.all(streamId, start, limit).map(rowToEnvelope);
    } catch (error) {
      throw mapSqliteError(error);
    }
  }

  async streamRevision(streamId: string): Promise<number | 'no_stream'> {
    this.assertOpen();
    return actualRevision(this.guard(() => this.lastRevision(streamId)));
  }

  async readAll(options: ReadAllOptions = {}): Promise<EventEnvelope[]> {
    this.assertOpen();
    assertMaxCount(options.maxCount);
    let after = parseFromPosition(options.fromPosition);
    const filter = compileFilter(options.filter);
    const statement = this.readAllStatements.get(filter.sql);
    let remaining = options.maxCount ?? Number.POSITIVE_INFINITY;
    const envelopes: EventEnvelope[] = [];
    try {
      while (remaining > 0) {
        const page = Math.min(remaining, READ_ALL_PAGE);
        // Positions commit in order, so paging by "after the last one" misses nothing.
        const rows = statement.all(after, ...filter.params, page);
        for (const row of rows) envelopes.push(rowToEnvelope(row));
        if (rows.length < page) break;
        after = rows[rows.length - 1][0];
        remaining -= rows.length;
      }
    } catch (error) {
      throw mapSqliteError(error);
    }
    return envelopes;
  }

  async headPosition(): Promise<Position | undefined> {
    this.assertOpen();
    const head = this.head();
    return head === 0 ? undefined : formatPosition(head);
  }

  subscribeToAll(options: SubscribeOptions, handler: EventHandler): Subscription {
    return this.subscribe(options, handler);
  }

  subscribeToAllInBatches(options: SubscribeOptions, handler: EventBatchHandler): Subscription {
    return this.subscribe(options, { batch: handler });
  }

  private subscribe(options: SubscribeOptions, handler: EventHandler | { batch: EventBatchHandler }): Subscription {
    this.assertOpen();
    const subscription = new PollingSubscription(
      this,
      options,
      compileFilter(options.filter),
      handler,
      { pollIntervalMs: this.pollIntervalMs, defaultBatchSize: DEFAULT_SUBSCRIPTION_BATCH_SIZE },
      (ended) => this.subscriptions.delete(ended),
    );
    this.subscriptions.add(subscription);
    return subscription;
  }

  async getCheckpoint(subscriberId: string): Promise<Position | undefined> {
    this.assertOpen();
    const position = this.loadCheckpoint(subscriberId);
    return position === undefined ? undefined : formatPosition(position);
  }

  async saveCheckpoint(subscriberId: string, position: Position): Promise<void> {
    this.assertOpen();
    this.storeCheckpoint(subscriberId, parsePosition(position));
  }

  /** Stops every subscription (each saves its checkpoint), then closes the connection. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      await Promise.all([...this.subscriptions].map((s) => s.stop()));
      this.db.close();
    })();
    return this.closing;
  }

  /** What the connection actually runs with (the README and the bench state these). */
  settings(): { journalMode: string; synchronous: SynchronousMode; busyTimeoutMs: number } {
    this.assertOpen();
    const synchronous = this.db.pragma('synchronous', { simple: true });
    return {
      journalMode: String(this.db.pragma('journal_mode', { simple: true })),
      // SQLite reports the level as a number: 1 = NORMAL, 2 = FULL.
      synchronous: synchronous === 2 ? 'FULL' : 'NORMAL',
      busyTimeoutMs: Number(this.db.pragma('busy_timeout', { simple: true })),
    };
  }

  // SubscriptionSource: synchronous, each one short transaction.

  readBatch(after: number, filter: FilterSql, limit: number): EventBatch {
    return this.guard(() => this.readBatchTransaction(after, filter, limit));
  }

  head(): number {
    return this.guard(() => this.statements.head.get() ?? 0);
  }

  loadCheckpoint(subscriberId: string): number | undefined {
    return this.guard(() => this.statements.getCheckpoint.get(subscriberId));
  }

  storeCheckpoint(subscriberId: string, position: number): void {
    this.guard(() => this.statements.saveCheckpoint.run(subscriberId, position, this.now().toISOString()));
  }

  onAppend(listener: () => void): () => void {
    this.appendListeners.add(listener);
    return () => this.appendListeners.delete(listener);
  }

  // Inside the write transaction.
  private appendRows(
    streamId: string,
    rows: readonly PreparedRow[],
    expected: ExpectedRevision,
    occurredAt: string,
  ): AppendResult {
    const current = this.lastRevision(streamId);
    if (!expectationHolds(expected, current)) {
      const repeat = this.findRepeat(streamId, rows, expected);
      if (repeat !== undefined) return repeat;
      throw new ConcurrencyError(streamId, expected, actualRevision(current));
    }
    const insert = this.statements.insert;
    let position: number | bigint = 0;
    for (let i = 0; i < rows.length; i += 1) {
      const row = rows[i];
      position = insert.run(
        streamId,
        current + 1 + i,
        row.eventId,
        row.type,
        row.schemaVersion,
        row.data,
        row.metadata,
        row.occurredAt ?? occurredAt,
      ).lastInsertRowid;
    }
    return {
      streamId,
      nextExpectedRevision: current + rows.length,
      position: formatPosition(Number(position)),
      written: true,
    };
  }

  /**
   * The EventStoreDB rule: a call is a repeat when all its ids are already in this stream, in
   * order and contiguous, starting where its exact expectation says ('any' / 'stream_exists':
   * anywhere). Ids are immutable once committed, so this holds whatever was appended since.
   */
  private findRepeat(
    streamId: string,
    rows: readonly PreparedRow[],
    expected: ExpectedRevision,
  ): AppendResult | undefined {
    const firstRevision = impliedFirstRevision(expected);
    let previous: [streamId: string, revision: number, position: number] | undefined;
    for (const row of rows) {
      const found = this.statements.byEventId.get(row.eventId);
      if (found === undefined || found[0] !== streamId) return undefined;
      if (
        previous === undefined
          ? firstRevision !== undefined && found[1] !== firstRevision
          : found[1] !== previous[1] + 1
      )
        return undefined;
      previous = found;
    }
    if (previous === undefined) return undefined;
    return { streamId, nextExpectedRevision: previous[1], position: formatPosition(previous[2]), written: false };
  }

  private repeatOrConflict(streamId: string, rows: readonly PreparedRow[], expected: ExpectedRevision): AppendResult {
    return this.guard(() => {
      const repeat = this.findRepeat(streamId, rows, expected);
      if (repeat !== undefined) return repeat;
      throw new ConcurrencyError(streamId, expected, actualRevision(this.lastRevision(streamId)));
    });
  }

  private readBatchRows(after: number, filter: FilterSql, limit: number): EventBatch {
    const rows: EventRow[] = this.readAllStatements.get(filter.sql).all(after, ...filter.params, limit);
    const envelopes = new Array<EventEnvelope>(rows.length);
    const positions = new Array<number>(rows.length);
    for (let i = 0; i < rows.length; i += 1) {
      envelopes[i] = rowToEnvelope(rows[i]);
      positions[i] = rows[i][0];
    }
    // A short page means nothing else matched up to the head of this same snapshot.
    const scannedTo =
      rows.length < limit ? Math.max(after, this.statements.head.get() ?? 0) : positions[rows.length - 1];
    return { envelopes, positions, scannedTo };
  }

  private lastRevision(streamId: string): number {
    return this.statements.lastRevision.get(streamId) ?? -1;
  }

  private guard<T>(work: () => T): T {
    try {
      return work();
    } catch (error) {
      throw mapSqliteError(error);
    }
  }

  private assertOpen(): void {
    if (this.closing !== undefined) throw new StoreUnavailableError('The SQLite event store is closed');
  }
}

const prepareRow = (event: NewEvent, schemaVersion: number): PreparedRow => ({
  eventId: event.eventId,
  type: event.type,
  schemaVersion,
  data: JSON.stringify(event.data),
  metadata: JSON.stringify(event.metadata),
});
