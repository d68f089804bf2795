import { createHash } from 'node:crypto';
import { createGridFsBlobStoreHarness, describeBlobStoreContract } from '@lomo/blobs/testing';

// FerretDB's SQLite backend is slower than a local file system; the checks stay the same.
jest.setTimeout(60_000);

// The distributed mode's BlobStore (LOMO_BLOB_STORE=mongodb) against the same contract as the filesystem one.
describeBlobStoreContract('GridFS on the MongoDB wire protocol (FerretDB here)', createGridFsBlobStoreHarness);

describe('GridFsBlobStore: what only a shared store can get wrong', () => {
  it('verifies the hash on every read: tampered chunks are refused with a typed error, not handed out', async () => {
    const harness = await createGridFsBlobStoreHarness();
    try {
      const ref = await harness.store.put('the original prompt', 'text/plain');
      // Same length, other bytes: GridFS itself sees nothing wrong, only the hash can.
      const chunks = harness.db.collection('lomo_blobs.chunks');
      await chunks.updateMany({}, { $set: { data: Buffer.from('the altered! prompt') } });
      await expect(harness.store.get(ref.hash)).rejects.toMatchObject({
        code: 'BLOB_CORRUPTED',
        retriable: false,
        actualHash: createHash('sha256').update('the altered! prompt').digest('hex'),
      });
      // Truncated: the driver notices first; it surfaces as the same typed error.
      await chunks.updateMany({}, { $set: { data: Buffer.from('short') } });
      await expect(harness.store.get(ref.hash)).rejects.toMatchObject({
        code: 'BLOB_CORRUPTED',
        actualHash: undefined,
      });
    } finally {
      await harness.dispose();
    }
  });

  it('forgetting erases the content itself, not only the address', async () => {
    const harness = await createGridFsBlobStoreHarness();
    try {
      const ref = await harness.store.put('forget this for good', 'text/plain');
      expect(await harness.db.collection('lomo_blobs.chunks').countDocuments()).toBe(1);
      expect(await harness.store.delete(ref.hash)).toBe(true);
      expect(await harness.db.collection('lomo_blobs.chunks').countDocuments()).toBe(0);
      expect(await harness.db.collection('lomo_blobs.files').countDocuments()).toBe(0);
    } finally {
      await harness.dispose();
    }
  });
});
