import { FilesystemBlobStore, GridFsBlobStore, type BlobStore } from '@lomo/blobs';
import type { LomoConfig } from '@lomo/config';
import type { Clock } from '@lomo/contracts';
import { openEventStoreDb, SqliteEventStore, type EventStore } from '@lomo/eventstore';
import type { Logger } from '@lomo/observability';
import { MongoClient } from 'mongodb';

/**
 * The event store LOMO_EVENTSTORE names: the SQLite file, or EventStoreDB at EVENTSTORE_URL.
 * `clock` stamps the SQLite store's `occurredAt` (the process's CLOCK, so a drill's simulated
 * time is the time events are recorded at; the watchdog compares the two). EventStoreDB keeps
 * its server's time.
 */
export function openEventStore(config: LomoConfig, clock?: Clock): EventStore | Promise<EventStore> {
  return config.LOMO_EVENTSTORE === 'eventstoredb'
    ? openEventStoreDb({ connectionString: config.EVENTSTORE_URL ?? '' })
    : new SqliteEventStore({
        filename: config.LOMO_SQLITE_PATH,
        synchronous: config.LOMO_SQLITE_SYNCHRONOUS,
        ...(clock !== undefined ? { now: () => clock.now() } : {}),
      });
}

/**
 * The BlobStore LOMO_BLOB_STORE names (libs/config/src/load-config.ts): files under LOMO_BLOB_DIR,
 * or GridFS when replicas share no disk; `client` is the MongoDB connection to close, if any.
 */
export function openBlobStore(config: LomoConfig, logger: Logger): { blobs: BlobStore; client?: MongoClient } {
  if (config.LOMO_BLOB_STORE === 'filesystem') return { blobs: new FilesystemBlobStore(config.LOMO_BLOB_DIR) };
  const client = new MongoClient(config.MONGODB_URL ?? '', { serverSelectionTimeoutMS: 5_000 });
  logger.info({ component: 'platform', blobStore: 'gridfs', database: config.MONGODB_DATABASE }, 'blobs on GridFS');
  return { blobs: new GridFsBlobStore({ db: client.db(config.MONGODB_DATABASE) }), client };
}
