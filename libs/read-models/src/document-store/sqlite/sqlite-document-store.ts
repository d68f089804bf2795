import Database from 'better-sqlite3';
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
import { assertDocumentId, documentJson } from '../document-validation';
import { planIndex } from '../index-spec';
import { encodeCursor } from '../query/cursor';
import { planFind } from '../query/find-plan';
import { assertCollectionName } from '../query/names';
import { parseFilter } from '../query/parse-filter';
import { isPrimaryKeyViolation, isNoSuchTable, mapSqliteError } from './sqlite-errors';
import type { SqliteWriteLock } from './sqlite-write-lock';
import {
  collectionOfTable,
  compileOrderBy,
  compileWhere,
  indexColumns,
  indexName,
  TABLE_NAME_PATTERN,
  tableName,
  type SqlParam,
} from './sqlite-sql';

export type SqliteSynchronous = 'OFF' | 'NORMAL' | 'FULL';

export interface SqliteDocumentStoreOptions {
  /** A file path, or ':memory:' (one connection only). */
  filename: string;
  /**
   * NORMAL by default: in WAL mode a power loss can lose the last commits but never corrupts,
   * and read models are rebuilt from the event store anyway.
   */
  synchronous?: SqliteSynchronous;
  busyTimeoutMs?: number;
  maxPageSize?: number;
  /** Taken around every write transaction: other threads of this process writing the same file. */
  writeLock?: SqliteWriteLock;
}

interface Row {
  _id: string;
  version: number;
  doc: string;
}

const STATEMENT_CACHE_LIMIT = 256;
const toDocument = <T extends DocumentInput>(row: Row) =>
  ({ _id: row._id, ...JSON.parse(row.doc), _version: row.version }) as StoredDocument<T>;

function checkExpectedVersion(expected: number | undefined): void {
  if (expected !== undefined && (!Number.isInteger(expected) || expected < 0)) {
    throw new InvalidQueryError(`expectedVersion must be a non-negative integer, got ${String(expected)}`);
  }
}

/**
 * DocumentStore on SQLite (WAL): one table per collection, `doc` holding the JSON body, filters
 * and sorts compiled to `json_extract`, declared indexes as expression indexes. better-sqlite3 is
 * synchronous; the async methods keep the port's shape.
 */
export class SqliteDocumentStore implements DocumentStore {
  private readonly db: Database.Database;
  private readonly maxPageSize: number;
  private readonly statements = new Map<string, Database.Statement>();
  /** Tables this connection created or saw; another connection may still drop one (handled). */
  private readonly knownTables = new Set<string>();
  private readonly writeLock: SqliteWriteLock | undefined;

  constructor(options: SqliteDocumentStoreOptions) {
    this.maxPageSize = options.maxPageSize ?? MAX_PAGE_SIZE;
    this.writeLock = options.writeLock;
    this.db = new Database(options.filename, { timeout: options.busyTimeoutMs ?? 5_000 });
    this.db.pragma('journal_mode = WAL');
    this.db.pragma(`synchronous = ${options.synchronous ?? 'NORMAL'}`);
  }

  async get<T extends DocumentInput>(collection: string, id: string): Promise<StoredDocument<T> | undefined> {
    assertCollectionName(collection);
    assertDocumentId(id);
    const rows = this.read<Row>(collection, `SELECT _id, version, doc FROM ${tableName(collection)} WHERE _id = ?`, [
      id,
    ]);
    return rows[0] === undefined ? undefined : toDocument<T>(rows[0]);
  }

  async getMany<T extends DocumentInput>(collection: string, ids: readonly string[]): Promise<StoredDocument<T>[]> {
    assertCollectionName(collection);
    if (!Array.isArray(ids) || ids.length > MAX_BATCH_SIZE) {
      throw new InvalidQueryError(`getMany takes an array of at most ${MAX_BATCH_SIZE} ids`);
    }
    ids.forEach(assertDocumentId);
    if (ids.length === 0) return [];
    // One statement for any number of ids: the list travels as a JSON array.
    const rows = this.read<Row>(
      collection,
      `SELECT _id, version, doc FROM ${tableName(collection)} WHERE _id IN (SELECT value FROM json_each(?))`,
      [JSON.stringify(ids)],
    );
    const byId = new Map(rows.map((r) => [r._id, r]));
    return [...new Set(ids)].flatMap((id) => {
      const row = byId.get(id);
      return row ? [toDocument<T>(row)] : [];
    });
  }

  async upsert(collection: string, document: DocumentInput, options: WriteOptions = {}): Promise<WriteResult> {
    assertCollectionName(collection);
    const { id, json } = documentJson(document);
    const expected = options.expectedVersion;
    checkExpectedVersion(expected);
    return this.write(collection, () => this.upsertRow(collection, id, json, expected));
  }

  /** Every write in one transaction; a write that fails (a conflict) fails alone. */
  async upsertMany(collection: string, writes: readonly ConditionalWrite[]): Promise<ConditionalWriteOutcome[]> {
    assertCollectionName(collection);
    if (!Array.isArray(writes) || writes.length > MAX_BATCH_SIZE) {
      throw new InvalidQueryError(`upsertMany takes an array of at most ${MAX_BATCH_SIZE} writes`);
    }
    const prepared = writes.map((w) => {
      checkExpectedVersion(w?.expectedVersion);
      return { ...documentJson(w.document), expected: w.expectedVersion };
    });
    if (prepared.length === 0) return [];
    return this.write(collection, () =>
      this.db.transaction(() =>
        prepared.map<ConditionalWriteOutcome>((w) => {
          try {
            return { ok: true, result: this.upsertRow(collection, w.id, w.json, w.expected) };
          } catch (error) {
            // A failed statement rolls back only itself; the transaction goes on with the others.
            // Anything but this write's own refusal (busy, I/O) fails the call, as upsert would.
            const mapped = mapSqliteError(error, collection);
            if (mapped instanceof DocumentConflictError || mapped instanceof UniqueConstraintError)
              return { ok: false, error: mapped };
            throw mapped;
          }
        }),
      )(),
    );
  }

  private upsertRow(collection: string, id: string, json: string, expected: number | undefined): WriteResult {
    {
      const table = tableName(collection);
      if (expected === undefined) {
        const version = this.statement(
          `INSERT INTO ${table} (_id, version, doc) VALUES (?, 1, ?)
           ON CONFLICT (_id) DO UPDATE SET version = version + 1, doc = excluded.doc RETURNING version`,
        )
          .pluck()
          .get(id, json) as number;
        return { id, version };
      }
      if (expected === 0) {
        try {
          this.statement(`INSERT INTO ${table} (_id, version, doc) VALUES (?, 1, ?)`).run(id, json);
        } catch (error) {
          if (isPrimaryKeyViolation(error)) throw this.conflict(collection, id, expected);
          throw error;
        }
        return { id, version: 1 };
      }
      const changed = this.statement(
        `UPDATE ${table} SET version = version + 1, doc = ? WHERE _id = ? AND version = ?`,
      ).run(json, id, expected).changes;
      if (changed === 0) throw this.conflict(collection, id, expected);
      return { id, version: expected + 1 };
    }
  }

  async delete(collection: string, id: string, options: WriteOptions = {}): Promise<boolean> {
    assertCollectionName(collection);
    assertDocumentId(id);
    const expected = options.expectedVersion;
    checkExpectedVersion(expected);
    if (expected === 0) {
      if ((await this.get(collection, id)) !== undefined) throw this.conflict(collection, id, 0);
      return false;
    }
    const table = tableName(collection);
    const sql =
      expected === undefined
        ? `DELETE FROM ${table} WHERE _id = ?`
        : `DELETE FROM ${table} WHERE _id = ? AND version = ?`;
    const params: SqlParam[] = expected === undefined ? [id] : [id, expected];
    try {
      const deleted = this.locked(() => this.statement(sql).run(...params).changes > 0);
      if (!deleted && expected !== undefined) throw this.conflict(collection, id, expected);
      return deleted;
    } catch (error) {
      if (isNoSuchTable(error)) {
        if (expected !== undefined) throw this.conflict(collection, id, expected);
        return false;
      }
      throw mapSqliteError(error, collection);
    }
  }

  async find<T extends DocumentInput>(collection: string, query?: FindQuery): Promise<Page<T>> {
    assertCollectionName(collection);
    const plan = planFind(query, this.maxPageSize);
    const where = compileWhere(plan.where);
    // One extra row tells whether another page exists without a count.
    const rows = this.read<Row>(
      collection,
      `SELECT _id, version, doc FROM ${tableName(collection)} WHERE ${where.sql} ORDER BY ${compileOrderBy(plan.sort)} LIMIT ?`,
      [...where.params, plan.limit + 1],
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
    assertCollectionName(collection);
    const where = compileWhere(parseFilter(filter));
    const rows = this.read<{ n: number }>(
      collection,
      `SELECT count(*) AS n FROM ${tableName(collection)} WHERE ${where.sql}`,
      where.params,
    );
    return rows[0]?.n ?? 0;
  }

  async bulkWrite(collection: string, operations: readonly BulkOperation[]): Promise<BulkResult> {
    assertCollectionName(collection);
    if (!Array.isArray(operations) || operations.length > MAX_BATCH_SIZE) {
      throw new InvalidQueryError(`bulkWrite takes an array of at most ${MAX_BATCH_SIZE} operations`);
    }
    const prepared = operations.map((op) => {
      if (op?.type === 'upsert') {
        const { id, json } = documentJson(op.document);
        return { type: 'upsert' as const, id, json };
      }
      if (op?.type === 'delete') {
        assertDocumentId(op.id);
        return { type: 'delete' as const, id: op.id };
      }
      throw new InvalidQueryError('A bulk operation is { type: "upsert", document } or { type: "delete", id }');
    });
    if (prepared.length === 0) return { upserted: 0, deleted: 0 };
    return this.write(collection, () => {
      const table = tableName(collection);
      const upsert = this.statement(
        `INSERT INTO ${table} (_id, version, doc) VALUES (?, 1, ?)
         ON CONFLICT (_id) DO UPDATE SET version = version + 1, doc = excluded.doc`,
      );
      const remove = this.statement(`DELETE FROM ${table} WHERE _id = ?`);
      const result = { upserted: 0, deleted: 0 };
      this.db
        .transaction(() => {
          for (const op of prepared) {
            if (op.type === 'upsert') result.upserted += upsert.run(op.id, op.json).changes;
            else result.deleted += remove.run(op.id).changes;
          }
        })
        .immediate();
      return result;
    });
  }

  async ensureIndexes(collection: string, indexes: readonly IndexSpec[]): Promise<void> {
    assertCollectionName(collection);
    if (!Array.isArray(indexes)) throw new InvalidQueryError('ensureIndexes takes an array of index declarations');
    const plans = indexes.map(planIndex);
    this.write(collection, () => {
      this.db
        .transaction(() => {
          for (const plan of plans) {
            this.db.exec(
              `CREATE ${plan.unique ? 'UNIQUE ' : ''}INDEX IF NOT EXISTS ${indexName(collection, plan)}
               ON ${tableName(collection)} (${indexColumns(plan)})`,
            );
          }
        })
        .immediate();
    });
  }

  async dropCollection(collection: string): Promise<boolean> {
    assertCollectionName(collection);
    try {
      const existed = this.locked(() =>
        this.db
          .transaction(() => {
            const found = this.tableExists(collection);
            if (found) this.db.exec(`DROP TABLE ${tableName(collection)}`);
            return found;
          })
          .immediate(),
      );
      // Statements on a dropped table cannot run again; the cache is small, so rebuild it all.
      this.statements.clear();
      this.knownTables.delete(collection);
      return existed;
    } catch (error) {
      throw mapSqliteError(error, collection);
    }
  }

  async listCollections(): Promise<string[]> {
    const tables = this.db
      .prepare<[string], string>(
        `SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE ? ESCAPE '\\' ORDER BY name`,
      )
      .pluck()
      .all(TABLE_NAME_PATTERN);
    return tables.map(collectionOfTable);
  }

  async close(): Promise<void> {
    this.statements.clear();
    if (this.db.open) this.db.close();
  }

  private statement(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (statement === undefined) {
      if (this.statements.size >= STATEMENT_CACHE_LIMIT) this.statements.clear();
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  /** A read of an absent collection is empty, and does not create it. */
  private read<R>(collection: string, sql: string, params: SqlParam[]): R[] {
    try {
      return this.statement(sql).all(...params) as R[];
    } catch (error) {
      if (isNoSuchTable(error)) {
        this.statements.delete(sql);
        return [];
      }
      throw mapSqliteError(error, collection);
    }
  }

  /** Creates the table on first use; if another connection dropped it meanwhile, once more. */
  private write<R>(collection: string, run: () => R): R {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return this.locked(() => {
          this.ensureTable(collection);
          return run();
        });
      } catch (error) {
        if (isNoSuchTable(error) && attempt === 1) {
          this.knownTables.delete(collection);
          this.statements.clear();
          continue;
        }
        throw mapSqliteError(error, collection);
      }
    }
  }

  private locked<R>(run: () => R): R {
    if (this.writeLock === undefined) return run();
    this.writeLock.acquire();
    try {
      return run();
    } finally {
      this.writeLock.release();
    }
  }

  private ensureTable(collection: string): void {
    if (this.knownTables.has(collection)) return;
    // A rowid table, not WITHOUT ROWID: documents can be large, and rowid tables keep them out of
    // the primary-key b-tree's interior pages.
    this.db.exec(
      `CREATE TABLE IF NOT EXISTS ${tableName(collection)} (_id TEXT PRIMARY KEY NOT NULL, version INTEGER NOT NULL, doc TEXT NOT NULL)`,
    );
    this.knownTables.add(collection);
  }

  private tableExists(collection: string): boolean {
    return (
      this.db
        .prepare<[string], number>(`SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?`)
        .pluck()
        .get(tableName(collection).slice(1, -1)) === 1
    );
  }

  private conflict(collection: string, id: string, expected: number): DocumentConflictError {
    const rows = this.read<{ version: number }>(
      collection,
      `SELECT version FROM ${tableName(collection)} WHERE _id = ?`,
      [id],
    );
    return new DocumentConflictError(collection, id, expected, rows[0]?.version ?? 0);
  }
}
