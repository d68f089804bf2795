import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describeSearchIndexContract } from '@lomo/routing/testing';
import { SqliteSearchIndex } from '@lomo/routing';

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
    db.exec('DROP TABLE search_fts');
    await expect(index.searchText('ws', 'poster', { limit: 5 })).rejects.toMatchObject({
      code: 'SEARCH_FAILED',
      retriable: false,
    });
  });
});
