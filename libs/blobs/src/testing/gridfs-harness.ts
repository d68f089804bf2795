import { randomBytes } from 'node:crypto';
import { MongoClient, type Db } from 'mongodb';
import { GridFsBlobStore } from '../gridfs-blob-store';
import type { BlobStoreHarness } from './blob-store.contract';

/** The server `scripts/infra/ferretdb.sh start` runs, unless MONGODB_URL points elsewhere. */
const mongoUrl = (): string => process.env.MONGODB_URL ?? 'mongodb://127.0.0.1:27017/';

/** A fresh database per harness, dropped on dispose; each store has a client of its own. */
export async function createGridFsBlobStoreHarness(): Promise<BlobStoreHarness & { db: Db }> {
  const databaseName = `lomo_blobs_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const clients: MongoClient[] = [];
  const open = async () => {
    const client = new MongoClient(mongoUrl(), { serverSelectionTimeoutMS: 5_000 });
    await client.connect();
    clients.push(client);
    return client.db(databaseName);
  };
  const db = await open();
  return {
    db,
    store: new GridFsBlobStore({ db }),
    openAnother: async () => new GridFsBlobStore({ db: await open() }),
    dispose: async () => {
      await db.dropDatabase();
      await Promise.all(clients.map((c) => c.close()));
    },
  };
}
