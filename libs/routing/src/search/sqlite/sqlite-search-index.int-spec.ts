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
  // A seeded Zipf corpus: common terms match most rows. The in-memory postings (scored in the
  // app with bm25()'s formula and FTS5's statistics) must agree with FTS5 ranking every match,
  // also after documents were replaced and removed, by this instance or by another connection.
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
    const reference = db.prepare(
      `SELECT d.id AS id, -bm25(search_fts, 0.0, 1.0) AS score FROM search_fts JOIN search_documents d ON d.rid = search_fts.rowid
       WHERE search_fts MATCH ? ORDER BY bm25(search_fts, 0.0, 1.0), d.id LIMIT 5`,
    );
    const scopeKey = `"s${Buffer.from('ws').toString('hex')}"`;
    for (let q = 0; q < 40; q += 1) {
      if (q % 10 === 5) {
        // documents replaced and removed by this instance after its caches were loaded
        await index.upsert(
          Array.from({ length: 50 }, (_, i) => ({ scope: 'ws', id: `t${q * 50 + i}`, text: text(7) })),
        );
        await index.remove(
          'ws',
          Array.from({ length: 20 }, (_, i) => `t${3_000 + q * 20 + i}`),
        );
      }
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
    db.close();
  });

  it("sees another connection's replacements and removals after its caches were loaded", async () => {
    // given two instances on one file (as two processes would open it), both having searched
    const dir = mkdtempSync(join(tmpdir(), 'lomo-search-'));
    const file = join(dir, 'search.sqlite');
    const reader = new SqliteSearchIndex({ database: file, dimensions: 2 });
    const writer = new SqliteSearchIndex({ database: file, dimensions: 2 });
    await writer.upsert([
      { scope: 'ws', id: 'a', text: 'poster warm colours', vector: Float32Array.from([1, 0]) },
      { scope: 'ws', id: 'b', text: 'video storyboard', vector: Float32Array.from([0, 1]) },
    ]);
    expect((await reader.searchText('ws', 'poster', { limit: 5 })).map((h) => h.id)).toEqual(['a']);
    expect((await reader.searchVector('ws', Float32Array.from([0, 1]), { limit: 1 })).map((h) => h.id)).toEqual(['b']);
    // when the other connection replaces one document and removes the other
    await writer.upsert([{ scope: 'ws', id: 'a', text: 'logo sketch', vector: Float32Array.from([0, 1]) }]);
    await writer.remove('ws', ['b']);
    // then the first instance's text and vector results follow at once
    expect(await reader.searchText('ws', 'poster', { limit: 5 })).toEqual([]);
    expect((await reader.searchText('ws', 'logo', { limit: 5 })).map((h) => h.id)).toEqual(['a']);
    expect((await reader.searchVector('ws', Float32Array.from([0, 1]), { limit: 5 })).map((h) => h.id)).toEqual(['a']);
    // and a clear() through the other connection empties what the first one sees
    await writer.clear();
    expect(await reader.searchText('ws', 'logo', { limit: 5 })).toEqual([]);
    expect(await reader.searchVector('ws', Float32Array.from([0, 1]), { limit: 5 })).toEqual([]);
    reader.close();
    writer.close();
    rmSync(dir, { recursive: true, force: true });
  });
});
