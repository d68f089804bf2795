import {
  MongoClient,
  type AnyBulkWriteOperation,
  type Collection,
  type Db,
  type Document,
  type MongoClientOptions,
} from 'mongodb';
import {
  MAX_BATCH_SIZE,
  MAX_PAGE_SIZE,
  type BulkOperation,
  type BulkResult,
  type ConditionalWrite,
  type ConditionalWriteOutcome,
  type DocumentInput,
  type DocumentStore,
  type Filter,
  type FindQuery,
  type IndexSpec,
  type Page,
  type StoredDocument,
  type WriteOptions,
  type WriteResult,
} from '../document-store.port';
import { DocumentConflictError, InvalidQueryError, UniqueConstraintError } from '../document-store.errors';
import { assertDocumentId, documentBody, type DocumentBody } from '../document-validation';
import { planIndex } from '../index-spec';
import { encodeCursor } from '../query/cursor';
import { planFind } from '../query/find-plan';
import { assertCollectionName } from '../query/names';
import { parseFilter } from '../query/parse-filter';
import { isDuplicateKey, isIdDuplicate, mapMongoError } from './mongo-errors';
import { asRow, BODY, compileFilter, compileSort, indexKey, VERSION, type StringIdDocument } from './mongo-filter';
import { detectServerProfile, type ServerProfile } from './server-profile';
import { TransitionClaims } from './transition-claims';

export interface MongoDocumentStoreOptions {
  client: MongoClient;
  databaseName: string;
  /** Close the client on close() (true when the store connected it itself). */
  ownsClient?: boolean;
  maxPageSize?: number;
  /** Detected from the server (buildInfo) when omitted. */
  serverProfile?: ServerProfile;
  /**
   * Where filtered updates are not atomic (FerretDB): age after which a transition claim is taken
   * for a crashed writer's. Longer than any write takes; shorter than you can afford a document
   * to stay blocked after a crash.
   */
  staleClaimMs?: number;
}

export interface ConnectMongoDocumentStoreOptions {
  url: string;
  databaseName: string;
  maxPageSize?: number;
  serverProfile?: ServerProfile;
  staleClaimMs?: number;
  /** Fail fast when the server is down; the driver's default waits 30 s. */
  serverSelectionTimeoutMS?: number;
  /**
   * A request without an answer for this long fails (retriable) instead of waiting forever: the
   * driver's default is no limit, and one read that never returned stalled a live subscription.
   */
  socketTimeoutMS?: number;
  clientOptions?: MongoClientOptions;
}

const NAMESPACE_EXISTS = 48;
const NAMESPACE_NOT_FOUND = 26;
const BULK_DUPLICATE_ATTEMPTS = 3;

function toDocument<T extends DocumentInput>(document: Document): StoredDocument<T> {
  const row = asRow(document);
  return { _id: row._id, ...row.d, _version: row._v } as StoredDocument<T>;
}

function checkExpectedVersion(expected: number | undefined): void {
  if (expected !== undefined && (!Number.isInteger(expected) || expected < 0)) {
    throw new InvalidQueryError(`expectedVersion must be a non-negative integer, got ${String(expected)}`);
  }
}

/**
 * DocumentStore on MongoDB 6+ and FerretDB 1.24, using only what both support: single-document
 * updates with upsert, $set/$setOnInsert/$inc, bulkWrite, unique and compound indexes; no
 * transactions, no change streams, no aggregation-pipeline updates.
 *
 * Compare-and-set is an update filtered on the stored version: atomic on MongoDB. FerretDB 1.24
 * does not apply a filtered update atomically, so there it is done while holding a transition
 * claim (TransitionClaims). Unconditional writes (upsert without expectedVersion, bulkWrite) are
 * last-writer-wins on both, and on FerretDB they do not wait for claims: do not mix them with
 * conditional writes on one document while writers race (projections use conditional writes).
 */
export class MongoDocumentStore implements DocumentStore {
  private readonly db: Db;
  private readonly maxPageSize: number;
  private readonly claims: TransitionClaims;
  private profile: Promise<ServerProfile> | undefined;

  constructor(private readonly options: MongoDocumentStoreOptions) {
    this.db = options.client.db(options.databaseName);
    this.maxPageSize = options.maxPageSize ?? MAX_PAGE_SIZE;
    this.claims = new TransitionClaims(this.db, { staleClaimMs: options.staleClaimMs ?? 30_000 });
    if (options.serverProfile) this.profile = Promise.resolve(options.serverProfile);
  }

  async get<T extends DocumentInput>(collection: string, id: string): Promise<StoredDocument<T> | undefined> {
    assertDocumentId(id);
    const row = await this.run(collection, (c) => c.findOne({ _id: id }));
    return row === null ? undefined : toDocument<T>(row);
  }

  async getMany<T extends DocumentInput>(collection: string, ids: readonly string[]): Promise<StoredDocument<T>[]> {
    if (!Array.isArray(ids) || ids.length > MAX_BATCH_SIZE) {
      throw new InvalidQueryError(`getMany takes an array of at most ${MAX_BATCH_SIZE} ids`);
    }
    ids.forEach(assertDocumentId);
    const unique = [...new Set(ids)];
    if (unique.length === 0) return [];
    const rows = await this.run(collection, (c) => c.find({ _id: { $in: unique } }).toArray());
    const byId = new Map(rows.map((r) => [r._id as unknown, r]));
    return unique.flatMap((id) => {
      const row = byId.get(id);
      return row ? [toDocument<T>(row)] : [];
    });
  }

  /**
   * One upsert after another (each its own round trip and compare-and-set): MongoDB has no
   * conditional bulk write that reports a conflict per document. Validated before the first write.
   */
  async upsertMany(collection: string, writes: readonly ConditionalWrite[]): Promise<ConditionalWriteOutcome[]> {
    assertCollectionName(collection);
    if (!Array.isArray(writes) || writes.length > MAX_BATCH_SIZE) {
      throw new InvalidQueryError(`upsertMany takes an array of at most ${MAX_BATCH_SIZE} writes`);
    }
    for (const w of writes) {
      documentBody(w?.document);
      checkExpectedVersion(w.expectedVersion);
    }
    const outcomes: ConditionalWriteOutcome[] = [];
    for (const w of writes) {
      try {
        outcomes.push({
          ok: true,
          result: await this.upsert(collection, w.document, { expectedVersion: w.expectedVersion }),
        });
      } catch (error) {
        if (!(error instanceof DocumentConflictError || error instanceof UniqueConstraintError)) throw error;
        outcomes.push({ ok: false, error });
      }
    }
    return outcomes;
  }

  async upsert(collection: string, document: DocumentInput, options: WriteOptions = {}): Promise<WriteResult> {
    const { id, body } = documentBody(document);
    const expected = options.expectedVersion;
    checkExpectedVersion(expected);
    if (expected === undefined) return this.replace(collection, id, body);
    if (expected === 0) return this.insertNew(collection, id, body);
    const applied = await this.compareAndSet(collection, id, expected, (c) =>
      c
        .updateOne({ _id: id, [VERSION]: expected }, { $set: { [BODY]: body, [VERSION]: expected + 1 } })
        .then((r) => r.matchedCount === 1),
    );
    if (!applied) throw await this.conflict(collection, id, expected);
    return { id, version: expected + 1 };
  }

  async delete(collection: string, id: string, options: WriteOptions = {}): Promise<boolean> {
    assertDocumentId(id);
    const expected = options.expectedVersion;
    checkExpectedVersion(expected);
    if (expected === 0) {
      if ((await this.get(collection, id)) !== undefined) throw await this.conflict(collection, id, 0);
      return false;
    }
    if (expected === undefined) {
      return this.run(collection, (c) => c.deleteOne({ _id: id }).then((r) => r.deletedCount > 0));
    }
    const deleted = await this.compareAndSet(collection, id, expected, (c) =>
      c.deleteOne({ _id: id, [VERSION]: expected }).then((r) => r.deletedCount === 1),
    );
    if (!deleted) throw await this.conflict(collection, id, expected);
    return true;
  }

  async find<T extends DocumentInput>(collection: string, query?: FindQuery): Promise<Page<T>> {
    const plan = planFind(query, this.maxPageSize);
    // One extra document tells whether another page exists without a count.
    const rows = await this.run(collection, (c) =>
      c.find(compileFilter(plan.where), { sort: compileSort(plan.sort), limit: plan.limit + 1 }).toArray(),
    );
    const items = rows.slice(0, plan.limit).map((r) => toDocument<T>(r));
    const last = items[items.length - 1];
    return {
      items,
      endCursor: last === undefined ? undefined : encodeCursor(plan.sort, last),
      hasMore: rows.length > plan.limit,
    };
  }

  async count(collection: string, filter?: Filter): Promise<number> {
    const where = compileFilter(parseFilter(filter));
    return this.run(collection, (c) => c.countDocuments(where));
  }

  async bulkWrite(collection: string, operations: readonly BulkOperation[]): Promise<BulkResult> {
    if (!Array.isArray(operations) || operations.length > MAX_BATCH_SIZE) {
      throw new InvalidQueryError(`bulkWrite takes an array of at most ${MAX_BATCH_SIZE} operations`);
    }
    const writes = operations.map((op): AnyBulkWriteOperation<StringIdDocument> => {
      if (op?.type === 'upsert') {
        const { id, body } = documentBody(op.document);
        return {
          updateOne: { filter: { _id: id }, update: { $set: { [BODY]: body }, $inc: { [VERSION]: 1 } }, upsert: true },
        };
      }
      if (op?.type === 'delete') {
        assertDocumentId(op.id);
        return { deleteOne: { filter: { _id: op.id } } };
      }
      throw new InvalidQueryError('A bulk operation is { type: "upsert", document } or { type: "delete", id }');
    });
    const chunkSize = (await this.serverProfile()).maxUpdatesPerCommand ?? MAX_BATCH_SIZE;
    const total = { upserted: 0, deleted: 0 };
    for (let start = 0; start < writes.length; start += chunkSize) {
      const chunk = writes.slice(start, start + chunkSize);
      const result = await this.run(collection, (c) => this.bulkWriteChunk(c, chunk));
      total.upserted += result.upsertedCount + result.matchedCount;
      total.deleted += result.deletedCount;
    }
    return total;
  }

  async ensureIndexes(collection: string, indexes: readonly IndexSpec[]): Promise<void> {
    if (!Array.isArray(indexes)) throw new InvalidQueryError('ensureIndexes takes an array of index declarations');
    const plans = indexes.map(planIndex);
    assertCollectionName(collection);
    if (plans.length === 0) {
      // Same as SQLite: declaring (even no indexes) brings the collection into existence.
      await this.run(collection, async () => {
        await this.db.createCollection(collection).catch((error: unknown) => {
          if ((error as { code?: unknown }).code !== NAMESPACE_EXISTS) throw error;
        });
      });
      return;
    }
    // Only the missing ones, one per command: FerretDB 1.24 panics (and drops the connection)
    // when one createIndexes command repeats two or more existing indexes.
    const existing = await this.indexNames(collection);
    for (const plan of plans.filter((p) => !existing.has(p.name))) {
      await this.run(collection, (c) =>
        c.createIndex(indexKey(plan), { name: plan.name, ...(plan.unique ? { unique: true } : {}) }),
      );
    }
  }

  async dropCollection(collection: string): Promise<boolean> {
    assertCollectionName(collection);
    // Servers disagree on dropping an absent collection (error before MongoDB 7); ask first.
    if (!(await this.listCollections()).includes(collection)) return false;
    await this.run(collection, () => this.db.dropCollection(collection));
    return true;
  }

  async listCollections(): Promise<string[]> {
    const infos = await this.guard('(all)', () => this.db.listCollections({}, { nameOnly: true }).toArray());
    return infos
      .map((i) => i.name)
      .filter((name) => /^[A-Za-z][A-Za-z0-9_]{0,63}$/.test(name))
      .sort();
  }

  async close(): Promise<void> {
    if (this.options.ownsClient) await this.options.client.close();
  }

  /** Unconditional replace that still bumps the version, in one round trip. */
  private async replace(collection: string, id: string, body: DocumentBody): Promise<WriteResult> {
    const write = () =>
      this.collection(collection).findOneAndUpdate(
        { _id: id },
        { $set: { [BODY]: body }, $inc: { [VERSION]: 1 } },
        // No projection: FerretDB 1.24 does not implement findAndModify's `fields`.
        { upsert: true, returnDocument: 'after' },
      );
    try {
      assertCollectionName(collection);
      let row: Document | null;
      try {
        row = await write();
      } catch (error) {
        // Two concurrent upserts of a new id: one inserts, the other hits the _id index (MongoDB
        // retries this itself since 4.2; FerretDB does not). A second try finds the document.
        if (!isDuplicateKey(error) || isIdDuplicate(error) === false) throw error;
        row = await write();
      }
      if (row === null) throw new Error(`findOneAndUpdate with upsert returned nothing for ${collection}/${id}`);
      return { id, version: asRow(row)._v };
    } catch (error) {
      throw mapMongoError(error, collection);
    }
  }

  private async insertNew(collection: string, id: string, body: DocumentBody): Promise<WriteResult> {
    try {
      const result = await this.run(collection, (c) =>
        c.updateOne({ _id: id }, { $setOnInsert: { [BODY]: body, [VERSION]: 1 } }, { upsert: true }),
      );
      if (result.upsertedCount === 1) return { id, version: 1 };
      throw await this.conflict(collection, id, 0);
    } catch (error) {
      // A duplicate key here is either another writer inserting the same id first (a conflict) or
      // a unique index; FerretDB does not say which, so look at whether the id exists now.
      if (error instanceof UniqueConstraintError && (await this.get(collection, id)) !== undefined) {
        throw await this.conflict(collection, id, 0);
      }
      throw error;
    }
  }

  /**
   * Two writers upserting the same new id race on the _id index; MongoDB retries that itself,
   * FerretDB reports a duplicate key. Every operation is an idempotent upsert or delete, so the
   * chunk is simply repeated; a duplicate that persists is a real unique-index violation.
   */
  private async bulkWriteChunk(c: Collection<StringIdDocument>, chunk: AnyBulkWriteOperation<StringIdDocument>[]) {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await c.bulkWrite(chunk, { ordered: true });
      } catch (error) {
        if (!isDuplicateKey(error) || isIdDuplicate(error) === false || attempt >= BULK_DUPLICATE_ATTEMPTS) throw error;
      }
    }
  }

  private async indexNames(collection: string): Promise<Set<string>> {
    try {
      const indexes = await this.collection(collection).listIndexes().toArray();
      return new Set(indexes.map((i) => String(i.name)));
    } catch (error) {
      if ((error as { code?: unknown }).code === NAMESPACE_NOT_FOUND) return new Set();
      throw mapMongoError(error, collection);
    }
  }

  /**
   * A write filtered on the expected version: atomic by itself on MongoDB; on FerretDB only while
   * holding the claim for the transition (see TransitionClaims). True when it applied.
   */
  private async compareAndSet(
    collection: string,
    id: string,
    expected: number,
    write: (c: Collection<StringIdDocument>) => Promise<boolean>,
  ): Promise<boolean> {
    assertCollectionName(collection);
    const apply = () => this.run(collection, write);
    if ((await this.serverProfile()).atomicFilteredUpdates) return apply();
    const outcome = await this.run(collection, () => this.claims.withClaim(collection, id, expected + 1, apply));
    return outcome.won && outcome.result;
  }

  private serverProfile(): Promise<ServerProfile> {
    if (this.profile === undefined) {
      const detecting = detectServerProfile(this.db).catch((error: unknown) => {
        this.profile = undefined; // try again on the next call
        throw mapMongoError(error, '(buildInfo)');
      });
      this.profile = detecting;
    }
    return this.profile;
  }

  private async conflict(collection: string, id: string, expected: number): Promise<DocumentConflictError> {
    const current = await this.get(collection, id).catch(() => undefined);
    return new DocumentConflictError(collection, id, expected, current?._version ?? 0);
  }

  private collection(collection: string): Collection<StringIdDocument> {
    return this.db.collection<StringIdDocument>(collection);
  }

  private run<R>(collection: string, call: (c: Collection<StringIdDocument>) => Promise<R>): Promise<R> {
    assertCollectionName(collection);
    return this.guard(collection, () => call(this.collection(collection)));
  }

  /** The adapter boundary: driver errors leave as the port's typed errors. */
  private async guard<R>(collection: string, call: () => Promise<R>): Promise<R> {
    try {
      return await call();
    } catch (error) {
      throw mapMongoError(error, collection);
    }
  }
}

/** Connects a client of its own (closed by the store's close()). */
export async function connectMongoDocumentStore(
  options: ConnectMongoDocumentStoreOptions,
): Promise<MongoDocumentStore> {
  const client = new MongoClient(options.url, {
    serverSelectionTimeoutMS: options.serverSelectionTimeoutMS ?? 5_000,
    socketTimeoutMS: options.socketTimeoutMS ?? 15_000,
    ...options.clientOptions,
  });
  try {
    await client.connect();
  } catch (error) {
    await client.close().catch(() => undefined);
    throw mapMongoError(error, '(connect)');
  }
  return new MongoDocumentStore({
    client,
    databaseName: options.databaseName,
    ownsClient: true,
    maxPageSize: options.maxPageSize,
    serverProfile: options.serverProfile,
    staleClaimMs: options.staleClaimMs,
  });
}
