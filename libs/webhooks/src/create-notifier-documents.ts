import type { Logger } from '@lomo/observability';
import { connectMongoDocumentStore, SqliteDocumentStore, type DocumentStore } from '@lomo/read-models';
import type { NotifierSettings } from './notifier-settings';

/** MongoDB (or FerretDB) when MONGODB_URL is set, else an SQLite file of the notifier's own. */
export async function createNotifierDocuments(settings: NotifierSettings, logger: Logger): Promise<DocumentStore> {
  if (settings.mongodbUrl !== undefined) {
    const store = await connectMongoDocumentStore({ url: settings.mongodbUrl, databaseName: settings.mongodbDatabase });
    logger.info(
      { component: 'notifier', documentStore: 'mongodb', database: settings.mongodbDatabase },
      'webhook state on MongoDB',
    );
    return store;
  }
  logger.info({ component: 'notifier', documentStore: 'sqlite', file: settings.sqlitePath }, 'webhook state on SQLite');
  // FULL: a power cut must not undo recorded skips and redeliveries (lost progress only re-sends).
  return new SqliteDocumentStore({ filename: settings.sqlitePath, synchronous: 'FULL' });
}
