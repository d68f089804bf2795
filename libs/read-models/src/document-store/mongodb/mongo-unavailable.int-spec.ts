import { createServer } from 'node:net';
import { connectMongoDocumentStore } from './mongo-document-store';

/** A port that was just free: nothing listens there. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('MongoDocumentStore without a server', () => {
  it('fails to connect with DOCUMENT_STORE_UNAVAILABLE (retriable)', async () => {
    const url = `mongodb://127.0.0.1:${await closedPort()}/`;
    await expect(
      connectMongoDocumentStore({ url, databaseName: 'lomo_absent', serverSelectionTimeoutMS: 200 }),
    ).rejects.toMatchObject({ code: 'DOCUMENT_STORE_UNAVAILABLE', retriable: true });
  });
});
