import { randomUUID } from 'node:crypto';
import * as path from 'node:path';
import { FilesystemBlobStore, SqliteBlobStore } from '@lomo/blobs';
import type { IdGenerator } from '@lomo/contracts';
import { SqliteEventStore } from '@lomo/eventstore';
import { ArtifactCommandService } from '../application';
import { DocumentTextStore } from '../document';

export interface WorkspaceHarness {
  service: ArtifactCommandService;
  store: SqliteEventStore;
  textBlobs: SqliteBlobStore;
  close(): Promise<void>;
}

/**
 * The embedded default's wiring on one SQLite file in `dir` (events.sqlite, document text in
 * its `blobs` table, media under dir/blobs), as WorkspaceModule builds it. Several harnesses,
 * in this process or others, may open the same dir: each is one more writer with its own cache.
 */
export function openWorkspaceHarness(
  dir: string,
  options: { synchronous?: 'FULL' | 'NORMAL'; ids?: IdGenerator; cacheChars?: number } = {},
): WorkspaceHarness {
  const filename = path.join(dir, 'events.sqlite');
  const store = new SqliteEventStore({ filename, synchronous: options.synchronous ?? 'FULL' });
  const textBlobs = new SqliteBlobStore({ filename, synchronous: 'NORMAL' });
  const service = new ArtifactCommandService({
    store,
    texts: new DocumentTextStore(textBlobs, { cacheChars: options.cacheChars }),
    media: new FilesystemBlobStore(path.join(dir, 'blobs')),
    ids: options.ids ?? { uuid: () => randomUUID() },
  });
  return {
    service,
    store,
    textBlobs,
    close: async () => {
      await store.close();
      textBlobs.close();
    },
  };
}
