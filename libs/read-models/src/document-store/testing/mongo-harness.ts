import { randomBytes } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { MongoDocumentStore, type MongoDocumentStoreOptions } from '../mongodb/mongo-document-store';
import type { DocumentStoreHarness } from './document-store-harness';

/** The server `scripts/infra/ferretdb.sh start` runs; MONGODB_URL points elsewhere (e.g. MongoDB 6+). */
export const mongoUrl = (): string => process.env.MONGODB_URL ?? 'mongodb://127.0.0.1:27017/';

/**
 * A database of its own per harness (the server keeps its data between runs and may be shared),
 * dropped on dispose. Every store gets a client of its own, like separate processes would.
 */
export async function createMongoDocumentStoreHarness(
  options: Omit<MongoDocumentStoreOptions, 'client' | 'databaseName' | 'ownsClient'> = {},
): Promise<DocumentStoreHarness & { databaseName: string; client: MongoClient }> {
  const databaseName = `lomo_test_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const clients: MongoClient[] = [];
  const open = async () => {
    const client = new MongoClient(mongoUrl(), { serverSelectionTimeoutMS: 5_000 });
    await client.connect();
    clients.push(client);
    return { client, store: new MongoDocumentStore({ ...options, client, databaseName }) };
  };
  const first = await open();
  return {
    databaseName,
    client: first.client,
    store: first.store,
    openAnother: async () => (await open()).store,
    dispose: async () => {
      await first.client.db(databaseName).dropDatabase();
      await Promise.all(clients.map((c) => c.close()));
    },
  };
}
