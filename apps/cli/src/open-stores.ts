import { FilesystemBlobStore, GridFsBlobStore, type BlobStore } from '@lomo/blobs';
import type { EventBus } from '@lomo/bus';
import type { LomoConfig } from '@lomo/config';
import { openEventStoreDb, SqliteEventStore, type EventStore } from '@lomo/eventstore';
import type { Logger } from '@lomo/observability';
import { createBus } from '@lomo/platform';
import { createDocumentStore, projectorSettings, type DocumentStore } from '@lomo/read-models';
import { MongoClient } from 'mongodb';

/** The stores the apps use, opened the way they open them (libs/platform/src/platform.module.ts). */
export interface OperatorStores {
  events: EventStore;
  documents: DocumentStore;
  blobs: BlobStore;
  /** Opened on demand: only the dead-letter and relay commands need it. */
  bus(): Promise<EventBus>;
  close(): Promise<void>;
}

export async function openOperatorStores(config: LomoConfig, logger: Logger): Promise<OperatorStores> {
  const closers: Array<() => Promise<unknown>> = [];
  try {
    const events: EventStore =
      config.LOMO_EVENTSTORE === 'eventstoredb'
        ? await openEventStoreDb({ connectionString: config.EVENTSTORE_URL ?? '' })
        : new SqliteEventStore({ filename: config.LOMO_SQLITE_PATH, synchronous: config.LOMO_SQLITE_SYNCHRONOUS });
    closers.push(() => events.close());
    const documents = await createDocumentStore(projectorSettings(config), logger);
    closers.push(() => documents.close());
    let blobs: BlobStore;
    if (config.LOMO_BLOB_STORE === 'filesystem') blobs = new FilesystemBlobStore(config.LOMO_BLOB_DIR);
    else {
      const client = new MongoClient(config.MONGODB_URL ?? '', { serverSelectionTimeoutMS: 5_000 });
      closers.push(() => client.close());
      blobs = new GridFsBlobStore({ db: client.db(config.MONGODB_DATABASE) });
    }
    let bus: EventBus | undefined;
    return {
      events,
      documents,
      blobs,
      bus() {
        if (bus === undefined) {
          const opened = createBus(config, logger);
          closers.push(() => opened.close());
          bus = opened;
        }
        return Promise.resolve(bus);
      },
      async close() {
        for (const close of closers.reverse()) await close().catch(() => undefined);
      },
    };
  } catch (error) {
    for (const close of closers.reverse()) await close().catch(() => undefined);
    throw error;
  }
}
