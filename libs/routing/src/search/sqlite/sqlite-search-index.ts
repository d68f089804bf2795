import Database from 'better-sqlite3';
import { tokenize } from '@lomo/text';
import type { SearchDocument, SearchHit, SearchIndex, SearchOptions } from '../search-index.port';
import { causeOf, SearchIndexError } from '../search-index.errors';
import {
  assertDimensions,
  assertDocuments,
  assertIds,
  assertOptions,
  assertScope,
  assertVector,
  lastPerKey,
} from '../search-input';
import { PartitionedVectors, type PartitionedVectorsOptions } from '../vectors/partitioned-vectors';
import { FTS5_B, FTS5_K1, fts5Idf } from './fts5-bm25';
import { TermPostings } from '../text/term-postings';

export interface SqliteSearchIndexOptions {
  /** The read-model database in embedded mode, or a file path (then this index owns the connection). */
  database: Database.Database | string;
  /** Length of every vector; the EmbeddingProvider's dimensions. */
  dimensions: number;
  /** Table name prefix, `search` by default. */
  tablePrefix?: string;
  /**
   * Page cache of a connection this index opens, 64 MiB by default: 100 000 documents' FTS
   * index and rows then stay in memory (SQLite's default 2 MiB made every search read pages
   * from the OS). A given Database keeps its owner's settings.
   */
  cacheSizeKiB?: number;
  /**
   * Text queries from an in-memory inverted index of each scope (default), scored with FTS5's own
   * bm25() formula and statistics; `false` ranks inside FTS5 with bm25() (the reference the
   * in-memory path is tested against).
   */
  textCache?: boolean;
  /**
   * Vector search per scope: exact below `threshold` vectors (20 000 by default), an inverted
   * file of k-means cells from there on (PartitionedVectors); `{ threshold: Infinity }` keeps it
   * exact at every size.
   */
  vectorSearch?: PartitionedVectorsOptions;
}

// Contention that outlived the busy timeout, or the disk failing: the caller may retry.
const UNAVAILABLE = /^SQLITE_(BUSY|LOCKED|IOERR|FULL|CANTOPEN|PROTOCOL)/;

/** By shape, not instanceof (see libs/read-models/src/document-store/sqlite/sqlite-errors.ts). */
function mapSqliteError(error: unknown, operation: string): unknown {
  if (error instanceof SearchIndexError) return error;
  const { name, code } = (typeof error === 'object' && error !== null ? error : {}) as {
    name?: unknown;
    code?: unknown;
  };
  if (name !== 'SqliteError' || typeof code !== 'string') return error;
  const kind = UNAVAILABLE.test(code) ? 'SEARCH_UNAVAILABLE' : 'SEARCH_FAILED';
  return new SearchIndexError(kind, `SQLite search index: ${operation} failed (${code})`, {
    operation,
    cause: causeOf(error),
  });
}

/**
 * The scope as one FTS token: hex of its UTF-8 bytes, so any workspace id is a single exact term
 * and the scope filter is an index lookup intersected with the query's terms, not a row scan.
 */
const scopeToken = (scope: string) => `s${Buffer.from(scope, 'utf8').toString('hex')}`;
const quote = (token: string) => `"${token.replace(/"/g, '""')}"`;

interface DocumentRow {
  rid: number;
  length: number;
  body: string;
}

/** Change-log rows kept for other instances to catch up; one that fell further behind reloads. */
const CHANGES_KEPT = 50_000;
const TRIM_EVERY = 1_000;

/**
 * SearchIndex on SQLite (the embedded store). Text: an FTS5 table over the shared tokenizer's
 * tokens joined by spaces, tokenised again by unicode61 with every letter, digit, mark,
 * punctuation and symbol category a token character, i.e. split on whitespace only, so bigrams
 * and "x-ray" stay one term and both sides see exactly @lomo/text's tokens; ranked by FTS5's
 * bm25() formula (its document statistics span all scopes of the table, which changes weights a
 * little, never the scope filter). The ranking runs over an in-memory inverted index of the
 * scope (TermPostings) with FTS5's statistics (rows, average length, the fts5vocab document
 * frequency), because bm25() inside FTS5 costs ~1.3 µs per matching row and a common term
 * matches most of 100 000 rows. Vectors: BLOBs in a table of their own, searched from a
 * per-scope PartitionedVectors: an exact scan below 20 000 vectors, an inverted file of k-means
 * cells above (approximate; `vectorSearch` sets it).
 *
 * Both caches are loaded on a scope's first query and kept current through a change log written
 * in the same transaction as each write: before a query, an instance applies the log's rows it
 * has not seen (its own and other processes' writes), so several processes may share the file.
 */
export class SqliteSearchIndex implements SearchIndex {
  private readonly db: Database.Database;
  private readonly ownsDatabase: boolean;
  private readonly dimensions: number;
  private readonly documents: string;
  private readonly fts: string;
  private readonly stats: string;
  private readonly vectors: string;
  private readonly vocabulary: string;
  private readonly changes: string;
  private readonly textCache: boolean;
  private readonly matrices = new Map<string, PartitionedVectors>();
  private readonly vectorSearch: PartitionedVectorsOptions;
  private readonly texts = new Map<string, TermPostings>();
  /** fts5vocab document frequencies asked so far (~90 µs a lookup), kept exact by own writes. */
  private readonly frequencies = new Map<string, number>();
  private lastSeq = 0;
  private epoch = 0;
  private readonly epochs: string;
  private writesSinceTrim = 0;
  private readonly statements: ReturnType<SqliteSearchIndex['prepare']>;

  constructor(options: SqliteSearchIndexOptions) {
    assertDimensions(options.dimensions);
    const prefix = options.tablePrefix ?? 'search';
    if (!/^[a-z][a-z0-9_]{0,40}$/.test(prefix))
      throw SearchIndexError.invalid('tablePrefix must match [a-z][a-z0-9_]*');
    this.dimensions = options.dimensions;
    this.documents = `${prefix}_documents`;
    this.fts = `${prefix}_fts`;
    this.stats = `${prefix}_stats`;
    this.vectors = `${prefix}_vectors`;
    this.vocabulary = `${prefix}_vocabulary`;
    this.changes = `${prefix}_changes`;
    this.epochs = `${prefix}_epoch`;
    this.textCache = options.textCache ?? true;
    this.vectorSearch = options.vectorSearch ?? {};
    this.ownsDatabase = typeof options.database === 'string';
    try {
      this.db = typeof options.database === 'string' ? new Database(options.database) : options.database;
      if (this.ownsDatabase) {
        this.db.pragma('journal_mode = WAL');
        this.db.pragma('synchronous = NORMAL'); // rebuilt from the event store if ever lost
        this.db.pragma(`cache_size = ${-(options.cacheSizeKiB ?? 65_536)}`);
      }
      this.db.exec(`
        CREATE TABLE IF NOT EXISTS ${this.documents} (
          rid INTEGER PRIMARY KEY,
          scope TEXT NOT NULL,
          id TEXT NOT NULL,
          text TEXT NOT NULL,
          body TEXT NOT NULL,
          length INTEGER NOT NULL,
          UNIQUE (scope, id)
        );
        -- Vectors apart: 1 KiB per row next to the text made the candidate reads 3x slower.
        CREATE TABLE IF NOT EXISTS ${this.vectors} (
          rid INTEGER PRIMARY KEY,
          scope TEXT NOT NULL,
          id TEXT NOT NULL,
          vector BLOB NOT NULL
        );
        CREATE INDEX IF NOT EXISTS ${this.vectors}_scope ON ${this.vectors} (scope);
        CREATE TABLE IF NOT EXISTS ${this.stats} (
          one INTEGER PRIMARY KEY CHECK (one = 1),
          rows INTEGER NOT NULL,
          tokens INTEGER NOT NULL
        );
        INSERT OR IGNORE INTO ${this.stats} SELECT 1, count(*), coalesce(sum(length), 0) FROM ${this.documents};
        CREATE VIRTUAL TABLE IF NOT EXISTS ${this.fts} USING fts5(
          scope_key, body,
          tokenize = "unicode61 remove_diacritics 0 categories 'L* N* Co M* P* S*'"
        );
        CREATE VIRTUAL TABLE IF NOT EXISTS ${this.vocabulary} USING fts5vocab(${this.fts}, 'col');
        CREATE TABLE IF NOT EXISTS ${this.changes} (
          seq INTEGER PRIMARY KEY AUTOINCREMENT,
          scope TEXT NOT NULL,
          id TEXT NOT NULL
        );
        CREATE TABLE IF NOT EXISTS ${this.epochs} (one INTEGER PRIMARY KEY CHECK (one = 1), epoch INTEGER NOT NULL);
        INSERT OR IGNORE INTO ${this.epochs} VALUES (1, 0);`);
      this.statements = this.prepare();
      this.lastSeq = this.statements.maxSeq.get() ?? 0;
      this.epoch = this.statements.readEpoch.get() ?? 0;
    } catch (error) {
      throw mapSqliteError(error, 'open');
    }
  }

  private prepare() {
    const d = this.documents;
    const f = this.fts;
    const v = this.vectors;
    return {
      find: this.db.prepare<[string, string], DocumentRow>(
        `SELECT rid, length, body FROM ${d} WHERE scope = ? AND id = ?`,
      ),
      scopeBodies: this.db.prepare<[string], { id: string; body: string }>(`SELECT id, body FROM ${d} WHERE scope = ?`),
      vectorOf: this.db.prepare<[string, string], { vector: Buffer }>(
        `SELECT vector FROM ${v} WHERE scope = ? AND id = ?`,
      ),
      logChange: this.db.prepare(`INSERT INTO ${this.changes} (scope, id) VALUES (?, ?)`),
      maxSeq: this.db.prepare<[], number | null>(`SELECT max(seq) FROM ${this.changes}`).pluck(),
      minSeq: this.db.prepare<[], number | null>(`SELECT min(seq) FROM ${this.changes}`).pluck(),
      changesSince: this.db.prepare<[number], { seq: number; scope: string; id: string }>(
        `SELECT seq, scope, id FROM ${this.changes} WHERE seq > ? ORDER BY seq`,
      ),
      trim: this.db.prepare(`DELETE FROM ${this.changes} WHERE seq <= ?`),
      readEpoch: this.db.prepare<[], number>(`SELECT epoch FROM ${this.epochs}`).pluck(),
      insert: this.db.prepare(`INSERT INTO ${d} (scope, id, text, body, length) VALUES (?, ?, ?, ?, ?)`),
      update: this.db.prepare(`UPDATE ${d} SET text = ?, body = ?, length = ? WHERE rid = ?`),
      moveStats: this.db.prepare(`UPDATE ${this.stats} SET rows = rows + ?, tokens = tokens + ?`),
      readStats: this.db.prepare<[], { rows: number; tokens: number }>(`SELECT rows, tokens FROM ${this.stats}`),
      frequency: this.db
        .prepare<[string], number>(`SELECT doc FROM ${this.vocabulary} WHERE term = ? AND col = 'body'`)
        .pluck(),
      deleteDocument: this.db.prepare(`DELETE FROM ${d} WHERE rid = ?`),
      insertFts: this.db.prepare(`INSERT INTO ${f} (rowid, scope_key, body) VALUES (?, ?, ?)`),
      deleteFts: this.db.prepare(`DELETE FROM ${f} WHERE rowid = ?`),
      // Ranked inside FTS5 first, joined for the ids of the few kept rows only (the join per
      // matched row cost more than the ranking).
      match: this.db.prepare<[string, number], { id: string; score: number }>(
        `SELECT d.id AS id, -r.rank AS score FROM (
           SELECT rowid, bm25(${f}, 0.0, 1.0) AS rank FROM ${f} WHERE ${f} MATCH ? ORDER BY rank LIMIT ?
         ) r JOIN ${d} d ON d.rid = r.rowid ORDER BY r.rank, d.id`,
      ),
      putVector: this.db.prepare(`INSERT OR REPLACE INTO ${v} (rid, scope, id, vector) VALUES (?, ?, ?, ?)`),
      deleteVector: this.db.prepare(`DELETE FROM ${v} WHERE rid = ?`),
      vectors: this.db.prepare<[string], { id: string; vector: Buffer }>(`SELECT id, vector FROM ${v} WHERE scope = ?`),
    };
  }

  async upsert(documents: readonly SearchDocument[]): Promise<void> {
    assertDocuments(documents, this.dimensions);
    const batch = lastPerKey(documents);
    const s = this.statements;
    let own: { from: number; to: number };
    try {
      own = this.db.transaction(() => {
        const before = s.maxSeq.get() ?? 0;
        for (const doc of batch) {
          const blob = doc.vector ? Buffer.from(doc.vector.buffer, doc.vector.byteOffset, doc.vector.byteLength) : null;
          const tokens = tokenize(doc.text);
          const body = tokens.join(' ');
          const existing = s.find.get(doc.scope, doc.id);
          let rid: number;
          if (existing) {
            rid = existing.rid;
            s.deleteFts.run(rid);
            s.update.run(doc.text, body, tokens.length, rid);
            s.moveStats.run(0, tokens.length - existing.length);
            this.countTerms(existing.body, -1);
          } else {
            rid = Number(s.insert.run(doc.scope, doc.id, doc.text, body, tokens.length).lastInsertRowid);
            s.moveStats.run(1, tokens.length);
          }
          s.insertFts.run(rid, scopeToken(doc.scope), body);
          this.countTerms(body, +1);
          if (blob) s.putVector.run(rid, doc.scope, doc.id, blob);
          else s.deleteVector.run(rid);
          s.logChange.run(doc.scope, doc.id);
        }
        return { from: before, to: s.maxSeq.get() ?? before };
      })();
    } catch (error) {
      this.frequencies.clear(); // the counts above may belong to a rolled-back transaction
      throw mapSqliteError(error, 'upsert');
    }
    this.afterWrite(own);
  }

  async remove(scope: string, ids: readonly string[]): Promise<void> {
    assertScope(scope);
    assertIds(ids);
    const s = this.statements;
    let own: { from: number; to: number };
    try {
      own = this.db.transaction(() => {
        const before = s.maxSeq.get() ?? 0;
        for (const id of ids) {
          const existing = s.find.get(scope, id);
          if (!existing) continue;
          s.deleteFts.run(existing.rid);
          s.deleteDocument.run(existing.rid);
          s.deleteVector.run(existing.rid);
          s.moveStats.run(-1, -existing.length);
          this.countTerms(existing.body, -1);
          s.logChange.run(scope, id);
        }
        return { from: before, to: s.maxSeq.get() ?? before };
      })();
    } catch (error) {
      this.frequencies.clear();
      throw mapSqliteError(error, 'remove');
    }
    this.afterWrite(own);
  }

  /** Keeps the cached document frequencies exact for this instance's own writes. */
  private countTerms(body: string, delta: 1 | -1): void {
    if (this.frequencies.size === 0 || body.length === 0) return;
    for (const term of new Set(body.split(' '))) {
      const df = this.frequencies.get(term);
      if (df !== undefined) this.frequencies.set(term, df + delta);
    }
  }

  /** Our own rows of the log: the caches take them now; anything between is another writer's. */
  private afterWrite(own: { from: number; to: number }): void {
    this.sync(own);
    this.writesSinceTrim += 1;
    if (this.writesSinceTrim >= TRIM_EVERY) {
      this.writesSinceTrim = 0;
      try {
        this.statements.trim.run(own.to - CHANGES_KEPT);
      } catch (error) {
        throw mapSqliteError(error, 'upsert');
      }
    }
  }

  /**
   * Applies the change log rows this instance has not seen to its loaded caches: each changed
   * document is read again (or dropped). Rows of another writer also invalidate the cached
   * document frequencies. An instance that fell behind the kept log drops all its caches.
   */
  private sync(own?: { from: number; to: number }): void {
    const s = this.statements;
    const epoch = s.readEpoch.get() ?? 0;
    const min = s.minSeq.get();
    if (epoch !== this.epoch || (min !== null && min !== undefined && min > this.lastSeq + 1)) {
      this.matrices.clear();
      this.texts.clear();
      this.frequencies.clear();
      this.lastSeq = s.maxSeq.get() ?? 0;
      this.epoch = epoch;
      return;
    }
    const rows = s.changesSince.all(this.lastSeq);
    if (rows.length === 0) return;
    const foreign = rows.some((r) => own === undefined || r.seq <= own.from || r.seq > own.to);
    if (foreign) this.frequencies.clear();
    const seen = new Set<string>();
    for (const { scope, id } of rows) {
      const key = `${scope}\u0000${id}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const text = this.texts.get(scope);
      const matrix = this.matrices.get(scope);
      if (!text && !matrix) continue;
      const row = text ? s.find.get(scope, id) : undefined;
      if (text) {
        if (row) text.set(id, row.body.length === 0 ? [] : row.body.split(' '));
        else text.delete(id);
      }
      if (matrix) {
        const stored = s.vectorOf.get(scope, id);
        if (stored) matrix.set(id, floatsOf(stored.vector));
        else matrix.delete(id);
      }
    }
    this.lastSeq = rows[rows.length - 1]!.seq;
  }

  /**
   * BM25 top-k, exact: FTS5's bm25() formula (fts5-bm25.ts) over the scope's in-memory postings,
   * with the table's own statistics, so the ranking is the one FTS5 would give (the
   * `textCache: false` path, tested side by side).
   */
  async searchText(scope: string, query: string, options: SearchOptions): Promise<SearchHit[]> {
    assertScope(scope);
    assertOptions(options);
    const terms = [...new Set(tokenize(String(query)))];
    if (terms.length === 0) return [];
    const exclude = options.exclude ?? new Set<string>();
    try {
      if (!this.textCache) return this.rankAll(scope, terms, options.limit, exclude);
      this.sync();
      const stats = this.statements.readStats.get();
      if (!stats || stats.rows === 0) return [];
      const weighted = terms
        .map((term) => ({ term, df: this.frequency(term) }))
        .filter((t) => t.df > 0)
        .map((t) => ({ term: t.term, idf: fts5Idf(stats.rows, t.df) }));
      if (weighted.length === 0) return [];
      const average = (stats.tokens + stats.rows) / stats.rows; // + the scope token of every row
      // The row's length in bm25() counts the scope column's one token too (lengthOffset 1).
      return this.text(scope).search(
        weighted,
        { k1: FTS5_K1, b: FTS5_B, average, lengthOffset: 1 },
        options.limit,
        exclude,
      );
    } catch (error) {
      throw mapSqliteError(error, 'searchText');
    }
  }

  private frequency(term: string): number {
    let df = this.frequencies.get(term);
    if (df === undefined) {
      df = this.statements.frequency.get(term) ?? 0;
      this.frequencies.set(term, df);
    }
    return df;
  }

  private text(scope: string): TermPostings {
    let postings = this.texts.get(scope);
    if (postings) return postings;
    postings = new TermPostings();
    for (const row of this.statements.scopeBodies.iterate(scope)) {
      postings.set(row.id, row.body.length === 0 ? [] : row.body.split(' '));
    }
    this.texts.set(scope, postings);
    return postings;
  }

  private expression(scope: string, terms: readonly string[]): string {
    return `scope_key : ${quote(scopeToken(scope))} AND body : (${terms.map(quote).join(' OR ')})`;
  }

  private rankAll(scope: string, terms: readonly string[], limit: number, exclude: ReadonlySet<string>): SearchHit[] {
    const rows = this.statements.match.all(this.expression(scope, terms), limit + exclude.size);
    return rows.filter((r) => !exclude.has(r.id)).slice(0, limit);
  }

  async searchVector(scope: string, vector: Float32Array, options: SearchOptions): Promise<SearchHit[]> {
    assertScope(scope);
    assertVector(vector, this.dimensions);
    assertOptions(options);
    try {
      this.sync();
    } catch (error) {
      throw mapSqliteError(error, 'searchVector');
    }
    return this.matrix(scope).search(vector, options.limit, options.exclude);
  }

  async clear(): Promise<void> {
    try {
      this.db.transaction(() => {
        this.db.prepare(`DELETE FROM ${this.fts}`).run();
        this.db.prepare(`DELETE FROM ${this.documents}`).run();
        this.db.prepare(`DELETE FROM ${this.vectors}`).run();
        this.db.prepare(`UPDATE ${this.stats} SET rows = 0, tokens = 0`).run();
        this.db.prepare(`DELETE FROM ${this.changes}`).run();
        // Every instance's caches go: a new epoch makes the others drop theirs at their next sync.
        this.db.prepare(`UPDATE ${this.epochs} SET epoch = epoch + 1`).run();
      })();
    } catch (error) {
      throw mapSqliteError(error, 'clear');
    }
    this.matrices.clear();
    this.texts.clear();
    this.frequencies.clear();
    this.lastSeq = this.statements.maxSeq.get() ?? 0;
    this.epoch = this.statements.readEpoch.get() ?? 0;
  }

  /** Closes the connection when this index opened it; a given Database stays open. */
  close(): void {
    if (this.ownsDatabase) this.db.close();
  }

  private matrix(scope: string): PartitionedVectors {
    let matrix = this.matrices.get(scope);
    if (matrix) return matrix;
    matrix = new PartitionedVectors(this.dimensions, this.vectorSearch);
    try {
      for (const row of this.statements.vectors.iterate(scope)) {
        const floats = floatsOf(row.vector);
        if (floats.length === this.dimensions) matrix.set(row.id, floats);
      }
    } catch (error) {
      throw mapSqliteError(error, 'searchVector');
    }
    this.matrices.set(scope, matrix);
    return matrix;
  }
}

function floatsOf(blob: Buffer): Float32Array {
  const floats = new Float32Array(blob.byteLength / 4);
  new Uint8Array(floats.buffer).set(blob);
  return floats;
}
