import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describeSearchIndexContract } from '@lomo/routing/testing';
import { SqliteSearchIndex } from '@lomo/routing';
import { tokenize } from '@lomo/text';

describeSearchIndexContract('SQLite FTS5', {
  create: async (dimensions) => {
    const dir = mkdtempSync(join(tmpdir(), 'lomo-search-'));
    const file = join(dir, 'read-models.sqlite');
    const opened: SqliteSearchIndex[] = [];
    const open = () => {
      const index = new SqliteSearchIndex({ database: file, dimensions });
      opened.push(index);
      return index;
    };
    return {
      index: open(),
      reopen: async () => open(),
      dispose: async () => {
        opened.forEach((i) => i.close());
        rmSync(dir, { recursive: true, force: true });
      },
    };
  },
});

describe('SqliteSearchIndex in a given database', () => {
  it('creates its tables idempotently next to other tables and leaves the connection open', async () => {
    // given a database that already holds a read model's table
    const db = new Database(':memory:');
    db.exec('CREATE TABLE tasks (id TEXT)');
    // when two indexes are opened on it one after the other
    const first = new SqliteSearchIndex({ database: db, dimensions: 2 });
    await first.upsert([{ scope: 'ws', id: 't1', text: 'poster', vector: Float32Array.from([1, 0]) }]);
    const second = new SqliteSearchIndex({ database: db, dimensions: 2 });
    second.close();
    // then the second sees the first's documents, and closing it did not close the given database
    expect((await second.searchText('ws', 'poster', { limit: 5 })).map((h) => h.id)).toEqual(['t1']);
    expect(db.prepare('SELECT count(*) AS n FROM tasks').get()).toEqual({ n: 0 });
    db.close();
  });

  it('reports a failing database as a typed error', async () => {
    const db = new Database(':memory:');
    const index = new SqliteSearchIndex({ database: db, dimensions: 2 });
    db.exec('DROP TABLE search_documents');
    await expect(index.upsert([{ scope: 'ws', id: 't1', text: 'poster' }])).rejects.toMatchObject({
      code: 'SEARCH_FAILED',
      retriable: false,
    });
  });
});

describe('SqliteSearchIndex text ranking', () => {
  // A seeded Zipf corpus: common terms match most rows, so the pruned path (rare terms first,
  // scored in the app) is the one taken, and it must agree with FTS5 ranking every match.
  let seed = 11;
  const random = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed / 2_147_483_648;
  };
  const vocabulary = Array.from({ length: 400 }, (_, i) =>
    i % 3 === 0 ? `w${i}x` : String.fromCodePoint(0x4e00 + i, 0x5000 + i),
  );
  const weights = vocabulary.map((_, rank) => 1 / (rank + 1));
  const total = weights.reduce((a, b) => a + b, 0);
  const word = () => {
    let x = random() * total;
    for (let i = 0; i < weights.length; i += 1) if ((x -= weights[i]!) <= 0) return vocabulary[i]!;
    return vocabulary[vocabulary.length - 1]!;
  };
  const text = (n: number) => Array.from({ length: n }, word).join(' ');

  it('returns the same hits and scores as bm25() over every matching row', async () => {
    // given 6 000 documents in one scope and 500 in another
    const db = new Database(':memory:');
    const index = new SqliteSearchIndex({ database: db, dimensions: 2 });
    const docs = Array.from({ length: 6_500 }, (_, i) => ({
      scope: i < 6_000 ? 'ws' : 'other',
      id: `t${i}`,
      text: text(4 + (i % 9)),
    }));
    await index.upsert(docs);
    // (rankAll is bm25() over every match: the fallback, counted to show the pruned path ran)
    const fallback = jest.spyOn(SqliteSearchIndex.prototype as unknown as { rankAll: () => unknown }, 'rankAll');
    const reference = db.prepare(
      `SELECT d.id AS id, -bm25(search_fts, 0.0, 1.0) AS score FROM search_fts JOIN search_documents d ON d.rid = search_fts.rowid
       WHERE search_fts MATCH ? ORDER BY bm25(search_fts, 0.0, 1.0), d.id LIMIT 5`,
    );
    const scopeKey = `"s${Buffer.from('ws').toString('hex')}"`;
    for (let q = 0; q < 40; q += 1) {
      const query = text(6);
      const terms = [...new Set(tokenize(query))];
      // when searched through the index
      const hits = await index.searchText('ws', query, { limit: 5 });
      // then the ids and scores are bm25()'s
      const expected = reference.all(
        `scope_key : ${scopeKey} AND body : (${terms.map((t) => `"${t}"`).join(' OR ')})`,
      ) as Array<{
        id: string;
        score: number;
      }>;
      expect(hits.map((h) => h.score)).toEqual(expected.map((e) => expect.closeTo(e.score, 9)));
      expect(new Set(hits.map((h) => h.id))).toEqual(new Set(expected.map((e) => e.id)));
    }
    expect(fallback.mock.calls.length).toBeLessThan(20);
    fallback.mockRestore();
    db.close();
  });
});
