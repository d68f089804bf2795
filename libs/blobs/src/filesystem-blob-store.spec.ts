import { readdirSync } from 'node:fs';
import * as path from 'node:path';
import { FilesystemBlobStore } from './filesystem-blob-store';
import { createFilesystemBlobStoreHarness, describeBlobStoreContract } from './testing';

describeBlobStoreContract('filesystem', createFilesystemBlobStoreHarness);

describe('FilesystemBlobStore', () => {
  it('keeps one file per content under two levels of fan-out', async () => {
    const harness = await createFilesystemBlobStoreHarness();
    try {
      const store = new FilesystemBlobStore(harness.dir);
      const a = await store.put(Buffer.from([1, 2, 3]), 'application/octet-stream');
      await store.put(Buffer.from([1, 2, 3]), 'application/octet-stream');
      const leaves = readdirSync(path.join(harness.dir, a.hash.slice(0, 2), a.hash.slice(2, 4)));
      expect(leaves).toEqual([a.hash]);
    } finally {
      await harness.dispose();
    }
  });
});
