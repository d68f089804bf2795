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
import { VectorMatrix } from '../vectors/vector-matrix';
import { topK } from '../vectors/top-k';
import { fts5Idf, fts5TermBound, fts5TermScore } from './fts5-bm25';

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
}

/**
 * Rows read as candidates through the rare terms, one round per share of all rows, before
 * bm25() ranks every match. Measured with bench/search-index.ts at 100 000 rows: 2 % alone fell
 * back on 13 % of queries, 4 % cost ~8 ms a query, 2 % then 8 % kept both low; a fixed 2 000 at
 * 10 000 rows read nearly every match (4.8 ms, now 1.2 ms).
 */
const CANDIDATE_SHARES = [0.02, 0.08];
const MIN_CANDIDATE_BUDGET = 200;

/**
 * SearchIndex on SQLite (the embedded store). Text: an FTS5 table over the shared tokenizer's
 * tokens joined by spaces, tokenised again by unicode61 with every letter, digit, mark,
 * punctuation and symbol category a token character, i.e. split on whitespace only, so bigrams
 * and "x-ray" stay one term and both sides see exactly @lomo/text's tokens; ranked by FTS5's
 * bm25() (its document statistics span all scopes of the table, which changes weights a little,
 * never the scope filter). Vectors: BLOBs in a table of their own, scanned exactly from a
 * per-scope VectorMatrix loaded on first use and kept current by this instance's writes.
 * Another connection writing the same tables is not seen by this instance's vector cache: one
 * process owns the embedded store.
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
  private readonly matrices = new Map<string, VectorMatrix>();
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
        CREATE VIRTUAL TABLE IF NOT EXISTS ${this.vocabulary} USING fts5vocab(${this.fts}, 'col');`);
      this.statements = this.prepare();
    } catch (error) {
      throw mapSqliteError(error, 'open');
    }
  }

  private prepare() {
    const d = this.documents;
    const f = this.fts;
    const v = this.vectors;
    return {
      find: this.db.prepare<[string, string], DocumentRow>(`SELECT rid, length FROM ${d} WHERE scope = ? AND id = ?`),
      insert: this.db.prepare(`INSERT INTO ${d} (scope, id, text, body, length) VALUES (?, ?, ?, ?, ?)`),
      update: this.db.prepare(`UPDATE ${d} SET text = ?, body = ?, length = ? WHERE rid = ?`),
      moveStats: this.db.prepare(`UPDATE ${this.stats} SET rows = rows + ?, tokens = tokens + ?`),
      readStats: this.db.prepare<[], { rows: number; tokens: number }>(`SELECT rows, tokens FROM ${this.stats}`),
      frequency: this.db
        .prepare<[string], number>(`SELECT doc FROM ${this.vocabulary} WHERE term = ? AND col = 'body'`)
        .pluck(),
      // The tokens come from the documents table: FTS5 reads its own content row by row, ~3 µs each.
      candidates: this.db.prepare<[string, string], { id: string; body: string }>(
        `SELECT d.id AS id, d.body AS body FROM (SELECT rowid FROM ${f} WHERE ${f} MATCH ?) m
         JOIN ${d} d ON d.rid = m.rowid WHERE d.scope = ?`,
      ),
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
    try {
      this.db.transaction(() => {
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
          } else {
            rid = Number(s.insert.run(doc.scope, doc.id, doc.text, body, tokens.length).lastInsertRowid);
            s.moveStats.run(1, tokens.length);
          }
          s.insertFts.run(rid, scopeToken(doc.scope), body);
          if (blob) s.putVector.run(rid, doc.scope, doc.id, blob);
          else s.deleteVector.run(rid);
        }
      })();
    } catch (error) {
      throw mapSqliteError(error, 'upsert');
    }
    for (const doc of batch) {
      const matrix = this.matrices.get(doc.scope);
      if (!matrix) continue;
      if (doc.vector) matrix.set(doc.id, doc.vector);
      else matrix.delete(doc.id);
    }
  }

  async remove(scope: string, ids: readonly string[]): Promise<void> {
    assertScope(scope);
    assertIds(ids);
    const s = this.statements;
    try {
      this.db.transaction(() => {
        for (const id of ids) {
          const existing = s.find.get(scope, id);
          if (!existing) continue;
          s.deleteFts.run(existing.rid);
          s.deleteDocument.run(existing.rid);
          s.deleteVector.run(existing.rid);
          s.moveStats.run(-1, -existing.length);
        }
      })();
    } catch (error) {
      throw mapSqliteError(error, 'remove');
    }
    const matrix = this.matrices.get(scope);
    if (matrix) for (const id of ids) matrix.delete(id);
  }

  /**
   * BM25 top-k, exact, without ranking every matching row: bm25() costs ~1.3 µs per row, and a
   * common term matches half of 100 000 rows. MaxScore: the rarest terms (within
   * a budget of rows) give the candidates, scored in the app exactly as bm25() would
   * (fts5-bm25.ts); a row that matches none of them can score at most the sum of the other
   * terms' bounds, so when the k-th candidate beats that sum the answer is final. Otherwise
   * FTS5 ranks every match with bm25() itself.
   */
  async searchText(scope: string, query: string, options: SearchOptions): Promise<SearchHit[]> {
    assertScope(scope);
    assertOptions(options);
    const terms = [...new Set(tokenize(String(query)))];
    if (terms.length === 0) return [];
    const exclude = options.exclude ?? new Set<string>();
    try {
      const rows = this.statements.readStats.get()?.rows ?? 0;
      for (const share of CANDIDATE_SHARES) {
        const budget = Math.max(MIN_CANDIDATE_BUDGET, Math.round(rows * share));
        const hits = this.rankPruned(scope, terms, options.limit, exclude, budget);
        if (hits) return hits;
      }
      return this.rankAll(scope, terms, options.limit, exclude);
    } catch (error) {
      throw mapSqliteError(error, 'searchText');
    }
  }

  private expression(scope: string, terms: readonly string[]): string {
    return `scope_key : ${quote(scopeToken(scope))} AND body : (${terms.map(quote).join(' OR ')})`;
  }

  private rankAll(scope: string, terms: readonly string[], limit: number, exclude: ReadonlySet<string>): SearchHit[] {
    const rows = this.statements.match.all(this.expression(scope, terms), limit + exclude.size);
    return rows.filter((r) => !exclude.has(r.id)).slice(0, limit);
  }

  private rankPruned(
    scope: string,
    terms: readonly string[],
    limit: number,
    exclude: ReadonlySet<string>,
    candidateBudget: number,
  ): SearchHit[] | undefined {
    const s = this.statements;
    const stats = s.readStats.get();
    if (!stats || stats.rows === 0) return [];
    const known = terms
      .map((term) => ({ term, df: s.frequency.get(term) ?? 0 }))
      .filter((t) => t.df > 0)
      .sort((a, b) => a.df - b.df);
    if (known.length === 0) return [];
    const idf = new Map(known.map((t) => [t.term, fts5Idf(stats.rows, t.df)]));
    let essential = 0;
    for (
      let budget = 0;
      essential < known.length && (essential === 0 || budget + known[essential]!.df <= candidateBudget);
    ) {
      budget += known[essential]!.df;
      essential += 1;
    }
    if (essential === known.length) return undefined; // the candidates would be every match
    let bound = 0;
    for (let i = essential; i < known.length; i += 1) bound += fts5TermBound(idf.get(known[i]!.term)!);
    const average = (stats.tokens + stats.rows) / stats.rows; // + the scope token of every row
    const rareTerms = known.slice(0, essential).map((t) => t.term);
    // No scope in this MATCH: the budget already bounds the rows read, and the join filters them.
    const candidates = s.candidates.all(`body : (${rareTerms.map(quote).join(' OR ')})`, scope);
    const ids: string[] = [];
    const scores: number[] = [];
    for (const row of candidates) {
      if (exclude.has(row.id)) continue;
      const tokens = row.body.length === 0 ? [] : row.body.split(' ');
      let score = 0;
      for (const [term, weight] of idf) {
        let tf = 0;
        for (const t of tokens) if (t === term) tf += 1;
        if (tf > 0) score += fts5TermScore(weight, tf, tokens.length + 1, average);
      }
      ids.push(row.id);
      scores.push(score);
    }
    const hits = topK(scores, scores.length, limit, () => true)
      .map((h) => ({ id: ids[h.index]!, score: h.score }))
      .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    // Final only if no row outside the candidates can reach the k-th score.
    return hits.length === limit && hits[limit - 1]!.score > bound ? hits : undefined;
  }

  async searchVector(scope: string, vector: Float32Array, options: SearchOptions): Promise<SearchHit[]> {
    assertScope(scope);
    assertVector(vector, this.dimensions);
    assertOptions(options);
    return this.matrix(scope).search(vector, options.limit, options.exclude);
  }

  async clear(): Promise<void> {
    try {
      this.db.transaction(() => {
        this.db.prepare(`DELETE FROM ${this.fts}`).run();
        this.db.prepare(`DELETE FROM ${this.documents}`).run();
        this.db.prepare(`DELETE FROM ${this.vectors}`).run();
        this.db.prepare(`UPDATE ${this.stats} SET rows = 0, tokens = 0`).run();
      })();
    } catch (error) {
      throw mapSqliteError(error, 'clear');
    }
    this.matrices.clear();
  }

  /** Closes the connection when this index opened it; a given Database stays open. */
  close(): void {
    if (this.ownsDatabase) this.db.close();
  }

  private matrix(scope: string): VectorMatrix {
    let matrix = this.matrices.get(scope);
    if (matrix) return matrix;
    matrix = new VectorMatrix(this.dimensions);
    try {
      for (const row of this.statements.vectors.iterate(scope)) {
        const floats = new Float32Array(row.vector.byteLength / 4);
        new Uint8Array(floats.buffer).set(row.vector);
        if (floats.length === this.dimensions) matrix.set(row.id, floats);
      }
    } catch (error) {
      throw mapSqliteError(error, 'searchVector');
    }
    this.matrices.set(scope, matrix);
    return matrix;
  }
}
