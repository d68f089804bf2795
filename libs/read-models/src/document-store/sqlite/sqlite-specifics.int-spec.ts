import Database from 'better-sqlite3';
import { MAX_PAGE_SIZE, type DocumentInput } from '../document-store.port';
import { planFind } from '../query/find-plan';
import { createSqliteDocumentStoreHarness } from '../testing/sqlite-harness';
import type { DocumentStoreHarness } from '../testing/document-store-harness';
import { SqliteDocumentStore } from './sqlite-document-store';
import { compileOrderBy, compileWhere, tableName } from './sqlite-sql';

const STATUSES = ['open', 'running', 'waiting', 'done'];
const TASKS = 10_000;

function task(i: number): DocumentInput {
  return {
    _id: `task-${String(i).padStart(5, '0')}`,
    status: STATUSES[i % STATUSES.length],
    // Many ties on purpose: one timestamp per 7 tasks.
    updatedAt: new Date(Date.UTC(2025, 0, 1) + Math.floor(i / 7) * 1_000).toISOString(),
    goal: `goal ${i} `.repeat(10),
    counts: { inbox: i % 5, turns: i % 11 },
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

describe('SqliteDocumentStore specifics', () => {
  let harness: DocumentStoreHarness & { filename: string };
  beforeAll(async () => {
    harness = await createSqliteDocumentStoreHarness();
  });
  afterAll(async () => {
    await harness.dispose();
  });

  describe(`an indexed, sorted page over ${TASKS} documents`, () => {
    const query = { filter: { status: 'running' }, sort: [['updatedAt', -1]] as const, limit: 20 };

    beforeAll(async () => {
      await harness.store.ensureIndexes('tasks', [{ fields: { status: 1, updatedAt: -1 } }]);
      const docs = Array.from({ length: TASKS }, (_, i) => task(i));
      for (let i = 0; i < docs.length; i += 2_000) {
        await harness.store.bulkWrite(
          'tasks',
          docs.slice(i, i + 2_000).map((document) => ({ type: 'upsert' as const, document })),
        );
      }
    });

    it('is an index walk: no full scan and no sort step, on the first page and after a cursor', async () => {
      const sort = [...query.sort] as Array<['updatedAt', -1]>;
      const first = await harness.store.find('tasks', { ...query, sort });
      expect(first.items).toHaveLength(20);
      const db = new Database(harness.filename, { readonly: true });
      try {
        // The statement the store runs, compiled by the store's own functions.
        const planOf = (after: string | undefined) => {
          const plan = planFind({ ...query, sort, after }, MAX_PAGE_SIZE);
          const where = compileWhere(plan.where);
          const sql = `SELECT _id, version, doc FROM ${tableName('tasks')} WHERE ${where.sql} ORDER BY ${compileOrderBy(plan.sort)} LIMIT ?`;
          return db
            .prepare(`EXPLAIN QUERY PLAN ${sql}`)
            .all(...where.params, plan.limit + 1)
            .map((row) => (row as { detail: string }).detail)
            .join('\n');
        };
        for (const plan of [planOf(undefined), planOf(first.endCursor)]) {
          expect(plan).toContain('USING INDEX doc_tasks/ix:status:1,updatedAt:-1');
          expect(plan).not.toContain('TEMP B-TREE');
        }
      } finally {
        db.close();
      }
    });

    it('takes well under 10 ms (median), first page and a page deep behind a cursor', async () => {
      const sort = [...query.sort] as Array<['updatedAt', -1]>;
      let after: string | undefined;
      for (let page = 0; page < 60; page += 1) {
        after = (await harness.store.find('tasks', { ...query, sort, after })).endCursor;
      }
      const timings = { first: [] as number[], deep: [] as number[] };
      for (let i = 0; i < 40; i += 1) {
        let t = process.hrtime.bigint();
        await harness.store.find('tasks', { ...query, sort });
        timings.first.push(Number(process.hrtime.bigint() - t) / 1e6);
        t = process.hrtime.bigint();
        const deep = await harness.store.find('tasks', { ...query, sort, after });
        timings.deep.push(Number(process.hrtime.bigint() - t) / 1e6);
        expect(deep.items).toHaveLength(20);
      }
      expect(median(timings.first)).toBeLessThan(10);
      expect(median(timings.deep)).toBeLessThan(10);
    });
  });

  it('a write blocked beyond the busy timeout is DOCUMENT_STORE_UNAVAILABLE (retriable)', async () => {
    const store = new SqliteDocumentStore({ filename: harness.filename, busyTimeoutMs: 50 });
    const locker = new Database(harness.filename);
    try {
      await store.upsert('locked', { _id: 'a' });
      locker.exec('BEGIN IMMEDIATE');
      await expect(store.upsert('locked', { _id: 'b' })).rejects.toMatchObject({
        code: 'DOCUMENT_STORE_UNAVAILABLE',
        retriable: true,
      });
      locker.exec('ROLLBACK');
      expect(await store.upsert('locked', { _id: 'b' })).toEqual({ id: 'b', version: 1 });
    } finally {
      locker.close();
      await store.close();
    }
  });

  it('a collection dropped through another connection is recreated on the next write', async () => {
    const other = await harness.openAnother();
    await harness.store.upsert('dropped', { _id: 'a' });
    expect(await other.dropCollection('dropped')).toBe(true);
    expect(await harness.store.get('dropped', 'a')).toBeUndefined();
    expect(await harness.store.upsert('dropped', { _id: 'b' })).toEqual({ id: 'b', version: 1 });
    expect((await other.find('dropped')).items.map((d) => d._id)).toEqual(['b']);
  });
});
