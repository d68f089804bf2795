import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { FilesystemBlobStore } from '../filesystem-blob-store';
import type { BlobStoreHarness } from './blob-store.contract';

export async function createFilesystemBlobStoreHarness(): Promise<BlobStoreHarness & { dir: string }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'lomo-blobs-'));
  return {
    dir,
    store: new FilesystemBlobStore(dir),
    openAnother: async () => new FilesystemBlobStore(dir),
    dispose: async () => rmSync(dir, { recursive: true, force: true }),
  };
}
