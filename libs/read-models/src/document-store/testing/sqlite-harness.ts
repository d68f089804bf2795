import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DocumentStore } from '../document-store.port';
import { SqliteDocumentStore, type SqliteDocumentStoreOptions } from '../sqlite/sqlite-document-store';
import type { DocumentStoreHarness } from './document-store-harness';

/** A temp file per harness; every store opened on it is closed and the file removed on dispose. */
export async function createSqliteDocumentStoreHarness(
  options: Omit<SqliteDocumentStoreOptions, 'filename'> = {},
): Promise<DocumentStoreHarness & { filename: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'lomo-documents-'));
  const filename = join(dir, 'read-models.sqlite');
  const opened: DocumentStore[] = [];
  const open = () => {
    const store = new SqliteDocumentStore({ ...options, filename });
    opened.push(store);
    return store;
  };
  return {
    filename,
    store: open(),
    openAnother: async () => open(),
    dispose: async () => {
      await Promise.all(opened.map((s) => s.close()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
