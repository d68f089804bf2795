import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { SqliteBlobStore, type SqliteBlobStoreOptions } from '../sqlite-blob-store';
import type { BlobStoreHarness } from './blob-store.contract';

/** A fresh SQLite file per harness; `openAnother` opens a second connection, as another process would. */
export async function createSqliteBlobStoreHarness(
  options: Omit<SqliteBlobStoreOptions, 'filename'> = {},
): Promise<BlobStoreHarness & { filename: string }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'lomo-sqlite-blobs-'));
  const filename = path.join(dir, 'blobs.sqlite');
  const opened: SqliteBlobStore[] = [];
  const open = () => {
    const store = new SqliteBlobStore({ filename, ...options });
    opened.push(store);
    return store;
  };
  return {
    filename,
    store: open(),
    openAnother: async () => open(),
    dispose: async () => {
      for (const store of opened) store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
