import { randomBytes } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { MongoSearchIndex } from '@lomo/routing';
import { describeSearchIndexContract } from '@lomo/routing/testing';

// FerretDB's SQLite backend is slower than a local SQLite file; the checks stay the same.
jest.setTimeout(60_000);

const url = process.env.MONGODB_URL ?? 'mongodb://127.0.0.1:27017/';

// The distributed mode's search index (MongoDB wire, no $text or vector search) against the
// contract the in-memory and SQLite indexes pass. A database of its own per case, dropped after.
describeSearchIndexContract('MongoDB wire protocol (FerretDB here)', {
  create: async (dimensions) => {
    const databaseName = `lomo_search_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
    const clients: MongoClient[] = [];
    const open = async () => {
      const client = new MongoClient(url, { serverSelectionTimeoutMS: 5_000 });
      await client.connect();
      clients.push(client);
      return new MongoSearchIndex({ db: client.db(databaseName), dimensions });
    };
    return {
      index: await open(),
      reopen: open,
      dispose: async () => {
        await clients[0]!.db(databaseName).dropDatabase();
        await Promise.all(clients.map((c) => c.close()));
      },
    };
  },
});

describe('MongoSearchIndex vector cache across instances', () => {
  it("shows another instance's upsert once its cache is older than the TTL", async () => {
    const databaseName = `lomo_search_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
    const client = new MongoClient(url, { serverSelectionTimeoutMS: 5_000 });
    await client.connect();
    try {
      let now = 0;
      const db = client.db(databaseName);
      const reader = new MongoSearchIndex({ db, dimensions: 2, vectorCacheTtlMs: 1_000, now: () => now });
      const writer = new MongoSearchIndex({ db, dimensions: 2 });
      // given the reader has loaded the scope's (empty) vectors
      expect(await reader.searchVector('ws', Float32Array.from([1, 0]), { limit: 5 })).toEqual([]);
      // when another instance writes a vector
      await writer.upsert([{ scope: 'ws', id: 't1', text: 'poster', vector: Float32Array.from([1, 0]) }]);
      // then the reader sees it only after the TTL
      expect(await reader.searchVector('ws', Float32Array.from([1, 0]), { limit: 5 })).toEqual([]);
      now = 1_000;
      expect((await reader.searchVector('ws', Float32Array.from([1, 0]), { limit: 5 })).map((h) => h.id)).toEqual([
        't1',
      ]);
    } finally {
      await client.db(databaseName).dropDatabase();
      await client.close();
    }
  });

  it('reports an unreachable server as a retriable SEARCH_UNAVAILABLE', async () => {
    const client = new MongoClient('mongodb://127.0.0.1:1/', { serverSelectionTimeoutMS: 300 });
    const index = new MongoSearchIndex({ db: client.db('nowhere'), dimensions: 2 });
    await expect(index.searchText('ws', 'poster', { limit: 5 })).rejects.toMatchObject({
      code: 'SEARCH_UNAVAILABLE',
      retriable: true,
    });
    await client.close();
  });
});
