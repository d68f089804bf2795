import { Binary, type Collection, type Db } from 'mongodb';
import { tokenize } from '@lomo/text';
import { idf, termFrequencies, termScore } from '../bm25';
import type { SearchDocument, SearchHit, SearchIndex, SearchOptions } from '../search-index.port';
import {
  assertDimensions,
  assertDocuments,
  assertIds,
  assertOptions,
  assertScope,
  assertVector,
  lastPerKey,
} from '../search-input';
import { topK } from '../vectors/top-k';
import { VectorMatrix } from '../vectors/vector-matrix';
import { guard } from './mongo-search-errors';

export interface MongoSearchIndexOptions {
  db: Db;
  /** Length of every vector; the EmbeddingProvider's dimensions. */
  dimensions: number;
  /** Collection name prefix, `search` by default. */
  collectionPrefix?: string;
  /** How long a scope's vector cache is trusted before it is reloaded; 30 s by default. */
  vectorCacheTtlMs?: number;
  now?: () => number;
}

interface DocumentRecord {
  _id: string;
  scope: string;
  id: string;
  text: string;
  tokens: string[];
  length: number;
  vector?: Binary;
}

interface PostingRecord {
  _id: string;
  scope: string;
  token: string;
  id: string;
  tf: number;
  length: number;
}

interface StatsRecord {
  _id: string;
  count: number;
  totalLength: number;
}

const key = (...parts: string[]) => JSON.stringify(parts);

/**
 * SearchIndex on a MongoDB-wire server without `$text` or vector search (FerretDB 1.24 here).
 * Text: a postings collection (one record per scope, token and document, with tf and the
 * document's length) read for the query's tokens and scored by BM25 in the app, with the
 * scope's document count and total length in a stats record kept by `$inc`. Vectors: BLOBs
 * (Binary) on the documents, scanned exactly from a per-scope VectorMatrix.
 *
 * Every instance (every router process) keeps its own vector cache: loaded on first use, kept
 * current by upserts and removals through this instance, and reloaded when older than
 * `vectorCacheTtlMs`, so another instance's writes show up within that time.
 *
 * No transactions (FerretDB has none): a write replaces postings, then the document, then moves
 * the stats; a crash in between leaves a document re-upserted next time to repair it, and the
 * stats only weigh terms.
 */
export class MongoSearchIndex implements SearchIndex {
  private readonly documents: Collection<DocumentRecord>;
  private readonly postings: Collection<PostingRecord>;
  private readonly stats: Collection<StatsRecord>;
  private readonly dimensions: number;
  private readonly ttlMs: number;
  private readonly now: () => number;
  private readonly caches = new Map<string, { matrix: VectorMatrix; loadedAt: number }>();
  private ready: Promise<void> | undefined;

  constructor(options: MongoSearchIndexOptions) {
    assertDimensions(options.dimensions);
    const prefix = options.collectionPrefix ?? 'search';
    this.documents = options.db.collection<DocumentRecord>(`${prefix}_documents`);
    this.postings = options.db.collection<PostingRecord>(`${prefix}_postings`);
    this.stats = options.db.collection<StatsRecord>(`${prefix}_stats`);
    this.dimensions = options.dimensions;
    this.ttlMs = options.vectorCacheTtlMs ?? 30_000;
    this.now = options.now ?? Date.now;
  }

  async upsert(documents: readonly SearchDocument[]): Promise<void> {
    assertDocuments(documents, this.dimensions);
    await this.ensureIndexes();
    for (const doc of lastPerKey(documents)) {
      const tokens = tokenize(doc.text);
      const tf = termFrequencies(tokens);
      const _id = key(doc.scope, doc.id);
      const vector = doc.vector
        ? new Binary(Buffer.from(doc.vector.buffer, doc.vector.byteOffset, doc.vector.byteLength))
        : undefined;
      await guard('upsert', async () => {
        const previous = await this.documents.findOne({ _id }, { projection: { length: 1 } });
        await this.postings.deleteMany({ scope: doc.scope, id: doc.id });
        if (tf.size > 0) {
          await this.postings.insertMany(
            [...tf].map(([token, n]) => ({
              _id: key(doc.scope, token, doc.id),
              scope: doc.scope,
              token,
              id: doc.id,
              tf: n,
              length: tokens.length,
            })),
            { ordered: false },
          );
        }
        const record: DocumentRecord = {
          _id,
          scope: doc.scope,
          id: doc.id,
          text: doc.text,
          tokens,
          length: tokens.length,
        };
        if (vector) record.vector = vector;
        await this.documents.replaceOne({ _id }, record, { upsert: true });
        await this.stats.updateOne(
          { _id: doc.scope },
          { $inc: { count: previous ? 0 : 1, totalLength: tokens.length - (previous?.length ?? 0) } },
          { upsert: true },
        );
      });
      const cache = this.caches.get(doc.scope);
      if (cache && doc.vector) cache.matrix.set(doc.id, doc.vector);
      else cache?.matrix.delete(doc.id);
    }
  }

  async remove(scope: string, ids: readonly string[]): Promise<void> {
    assertScope(scope);
    assertIds(ids);
    await this.ensureIndexes();
    for (const id of ids) {
      await guard('remove', async () => {
        const _id = key(scope, id);
        // findOne + deleteOne, not findOneAndDelete (FerretDB 1.24 refuses it with a projection);
        // only the call that deleted the document moves the stats.
        const previous = await this.documents.findOne({ _id }, { projection: { length: 1 } });
        await this.postings.deleteMany({ scope, id });
        const { deletedCount } = await this.documents.deleteOne({ _id });
        if (previous && deletedCount === 1) {
          await this.stats.updateOne({ _id: scope }, { $inc: { count: -1, totalLength: -previous.length } });
        }
      });
      this.caches.get(scope)?.matrix.delete(id);
    }
  }

  async searchText(scope: string, query: string, options: SearchOptions): Promise<SearchHit[]> {
    assertScope(scope);
    assertOptions(options);
    const terms = [...new Set(tokenize(String(query)))];
    if (terms.length === 0) return [];
    return guard('searchText', async () => {
      const stats = await this.stats.findOne({ _id: scope });
      if (!stats || stats.count <= 0) return [];
      const postings = await this.postings
        .find({ scope, token: { $in: terms } }, { projection: { _id: 0, token: 1, id: 1, tf: 1, length: 1 } })
        .toArray();
      const byToken = new Map<string, PostingRecord[]>();
      for (const p of postings) {
        const list = byToken.get(p.token);
        if (list) list.push(p);
        else byToken.set(p.token, [p]);
      }
      const average = stats.totalLength / stats.count;
      const scores = new Map<string, number>();
      for (const list of byToken.values()) {
        const weight = idf(stats.count, list.length);
        for (const p of list) scores.set(p.id, (scores.get(p.id) ?? 0) + termScore(weight, p.tf, p.length, average));
      }
      const ids = [...scores.keys()].sort();
      const values = ids.map((id) => scores.get(id)!);
      const exclude = options.exclude;
      return topK(values, ids.length, options.limit, (i) => !exclude?.has(ids[i]!)).map((h) => ({
        id: ids[h.index]!,
        score: h.score,
      }));
    });
  }

  async searchVector(scope: string, vector: Float32Array, options: SearchOptions): Promise<SearchHit[]> {
    assertScope(scope);
    assertVector(vector, this.dimensions);
    assertOptions(options);
    const matrix = await this.matrix(scope);
    return matrix.search(vector, options.limit, options.exclude);
  }

  async clear(): Promise<void> {
    await guard('clear', async () => {
      await this.postings.deleteMany({});
      await this.documents.deleteMany({});
      await this.stats.deleteMany({});
    });
    this.caches.clear();
  }

  private async matrix(scope: string): Promise<VectorMatrix> {
    const cached = this.caches.get(scope);
    if (cached && this.now() - cached.loadedAt < this.ttlMs) return cached.matrix;
    const loadedAt = this.now();
    const matrix = new VectorMatrix(this.dimensions);
    await guard('searchVector', async () => {
      const cursor = this.documents.find(
        { scope, vector: { $exists: true } },
        { projection: { _id: 0, id: 1, vector: 1 } },
      );
      for await (const row of cursor) {
        if (!row.vector) continue;
        const bytes = row.vector.read(0, row.vector.length());
        if (bytes.byteLength !== this.dimensions * 4) continue;
        const floats = new Float32Array(this.dimensions);
        new Uint8Array(floats.buffer).set(bytes);
        matrix.set(row.id, floats);
      }
    });
    this.caches.set(scope, { matrix, loadedAt });
    return matrix;
  }

  private ensureIndexes(): Promise<void> {
    this.ready ??= guard('createIndexes', async () => {
      await this.postings.createIndex({ scope: 1, token: 1 }, { name: 'scope_token' });
      await this.postings.createIndex({ scope: 1, id: 1 }, { name: 'scope_id' });
      await this.documents.createIndex({ scope: 1 }, { name: 'scope' });
    }).catch((error: unknown) => {
      this.ready = undefined;
      throw error;
    });
    return this.ready;
  }
}
