import Database from 'better-sqlite3';
import { tokenize } from '@lomo/text';
import type { SearchDocument, SearchHit, SearchIndex, SearchOptions } from '../search-index.port';
import { causeOf, SearchIndexError } from '../search-index.errors';
import {
  assertDimensions,
  assertDocuments,
  assertId,
  assertOptions,
  assertScope,
  assertVector,
  lastPerKey,
} from '../search-input';
import { VectorMatrix } from '../vectors/vector-matrix';

export interface SqliteSearchIndexOptions {
  /** The read-model database in embedded mode, or a file path (then this index owns the connection). */
  database: Database.Database | string;
  /** Length of every vector; the EmbeddingProvider's dimensions. */
  dimensions: number;
  /** Table name prefix, `search` by default. */
  tablePrefix?: string;
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
}

/**
 * SearchIndex on SQLite (the embedded store). Text: an FTS5 table over the shared tokenizer's
 * tokens joined by spaces, tokenised again by unicode61 with every letter, digit, mark,
 * punctuation and symbol category a token character, i.e. split on whitespace only, so bigrams
 * and "x-ray" stay one term and both sides see exactly @lomo/text's tokens; ranked by FTS5's
 * bm25() (its document statistics span all scopes of the table, which changes weights a little,
 * never the scope filter). Vectors: BLOBs in the documents table, scanned exactly from a
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
    this.ownsDatabase = typeof options.database === 'string';
    try {
      this.db = typeof options.database === 'string' ? new Database(options.database) : options.database;
      if (this.ownsDatabase) this.db.pragma('journal_mode = WAL');
      this.db.exec(`
        CREATE TABLE IF NOT EXISTS ${this.documents} (
          rid INTEGER PRIMARY KEY,
          scope TEXT NOT NULL,
          id TEXT NOT NULL,
          text TEXT NOT NULL,
          vector BLOB,
          UNIQUE (scope, id)
        );
        CREATE VIRTUAL TABLE IF NOT EXISTS ${this.fts} USING fts5(
          scope_key, body,
          tokenize = "unicode61 remove_diacritics 0 categories 'L* N* Co M* P* S*'"
        );`);
      this.statements = this.prepare();
    } catch (error) {
      throw mapSqliteError(error, 'open');
    }
  }

  private prepare() {
    const d = this.documents;
    const f = this.fts;
    return {
      find: this.db.prepare<[string, string], DocumentRow>(`SELECT rid FROM ${d} WHERE scope = ? AND id = ?`),
      insert: this.db.prepare(`INSERT INTO ${d} (scope, id, text, vector) VALUES (?, ?, ?, ?)`),
      update: this.db.prepare(`UPDATE ${d} SET text = ?, vector = ? WHERE rid = ?`),
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
      vectors: this.db.prepare<[string], { id: string; vector: Buffer }>(
        `SELECT id, vector FROM ${d} WHERE scope = ? AND vector IS NOT NULL`,
      ),
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
          const body = tokenize(doc.text).join(' ');
          const existing = s.find.get(doc.scope, doc.id);
          let rid: number;
          if (existing) {
            rid = existing.rid;
            s.deleteFts.run(rid);
            s.update.run(doc.text, blob, rid);
          } else {
            rid = Number(s.insert.run(doc.scope, doc.id, doc.text, blob).lastInsertRowid);
          }
          s.insertFts.run(rid, scopeToken(doc.scope), body);
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
    ids.forEach(assertId);
    const s = this.statements;
    try {
      this.db.transaction(() => {
        for (const id of ids) {
          const existing = s.find.get(scope, id);
          if (!existing) continue;
          s.deleteFts.run(existing.rid);
          s.deleteDocument.run(existing.rid);
        }
      })();
    } catch (error) {
      throw mapSqliteError(error, 'remove');
    }
    const matrix = this.matrices.get(scope);
    if (matrix) for (const id of ids) matrix.delete(id);
  }

  async searchText(scope: string, query: string, options: SearchOptions): Promise<SearchHit[]> {
    assertScope(scope);
    assertOptions(options);
    const terms = [...new Set(tokenize(String(query)))];
    if (terms.length === 0) return [];
    const expression = `scope_key : ${quote(scopeToken(scope))} AND body : (${terms.map(quote).join(' OR ')})`;
    const exclude = options.exclude ?? new Set<string>();
    try {
      const rows = this.statements.match.all(expression, options.limit + exclude.size);
      return rows.filter((r) => !exclude.has(r.id)).slice(0, options.limit);
    } catch (error) {
      throw mapSqliteError(error, 'searchText');
    }
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
