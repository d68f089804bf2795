import { FERRETDB_PROFILE } from '@lomo/read-models';
import { CLAIMS_COLLECTION, createMongoDocumentStoreHarness } from '@lomo/read-models/testing';

jest.setTimeout(60_000);

const STALE_MS = 300;

type Harness = Awaited<ReturnType<typeof createMongoDocumentStoreHarness>>;

/** What a writer that crashed between claiming a transition and releasing it leaves behind. */
async function leaveClaim(harness: Harness, collection: string, id: string, toVersion: number, at: number) {
  await harness.client
    .db(harness.databaseName)
    .collection<{ _id: string; at: number }>(CLAIMS_COLLECTION)
    .insertOne({ _id: JSON.stringify([collection, id, toVersion]), at });
}

describe('MongoDB adapter on FerretDB: transition claims', () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await createMongoDocumentStoreHarness({ serverProfile: FERRETDB_PROFILE, staleClaimMs: STALE_MS });
  });
  afterAll(async () => {
    await harness.dispose();
  });

  it('a live claim makes a competing write conflict and changes nothing', async () => {
    await harness.store.upsert('tasks', { _id: 't1', n: 1 });
    await leaveClaim(harness, 'tasks', 't1', 2, Date.now());
    await expect(harness.store.upsert('tasks', { _id: 't1', n: 2 }, { expectedVersion: 1 })).rejects.toMatchObject({
      code: 'DOCUMENT_CONFLICT',
      actualVersion: 1,
    });
    expect(await harness.store.get('tasks', 't1')).toEqual({ _id: 't1', n: 1, _version: 1 });
  });

  it("a crashed writer's stale claim is skipped over: one conflict, then writes go on", async () => {
    await harness.store.upsert('tasks', { _id: 't2', n: 1 });
    await leaveClaim(harness, 'tasks', 't2', 2, Date.now() - STALE_MS - 1);
    // The collision performs the dead writer's transition as a no-op: version 2, same content.
    await expect(harness.store.upsert('tasks', { _id: 't2', n: 2 }, { expectedVersion: 1 })).rejects.toMatchObject({
      code: 'DOCUMENT_CONFLICT',
      actualVersion: 2,
    });
    expect(await harness.store.get('tasks', 't2')).toEqual({ _id: 't2', n: 1, _version: 2 });
    expect(await harness.store.upsert('tasks', { _id: 't2', n: 2 }, { expectedVersion: 2 })).toEqual({
      id: 't2',
      version: 3,
    });
    // A late write of the presumed-dead writer, filtered on version 1, matches nothing.
    await expect(harness.store.upsert('tasks', { _id: 't2', n: 99 }, { expectedVersion: 1 })).rejects.toMatchObject({
      code: 'DOCUMENT_CONFLICT',
    });
    expect(await harness.store.get('tasks', 't2')).toEqual({ _id: 't2', n: 2, _version: 3 });
  });

  it('claims are released after every write, successful or not', async () => {
    await harness.store.upsert('tasks', { _id: 't3', n: 1 });
    await harness.store.upsert('tasks', { _id: 't3', n: 2 }, { expectedVersion: 1 });
    await expect(harness.store.upsert('tasks', { _id: 't3', n: 3 }, { expectedVersion: 1 })).rejects.toMatchObject({
      code: 'DOCUMENT_CONFLICT',
    });
    await harness.store.delete('tasks', 't3', { expectedVersion: 2 });
    const claims = harness.client.db(harness.databaseName).collection<{ _id: string }>(CLAIMS_COLLECTION);
    const keys = [2, 3].map((toVersion) => JSON.stringify(['tasks', 't3', toVersion]));
    expect(await claims.countDocuments({ _id: { $in: keys } })).toBe(0);
    expect(await harness.store.listCollections()).not.toContain(CLAIMS_COLLECTION);
  });

  it("a bulk write far above FerretDB's 100 pooled connections per database completes", async () => {
    const ops = Array.from({ length: 1_000 }, (_, i) => ({ type: 'upsert' as const, document: { _id: `b${i}`, i } }));
    const [a, b] = await Promise.all([
      harness.store.bulkWrite('bulk', ops),
      (await harness.openAnother()).bulkWrite('bulk', ops),
    ]);
    expect(a.upserted + b.upserted).toBe(2_000);
    expect(await harness.store.count('bulk')).toBe(1_000);
  });
});
