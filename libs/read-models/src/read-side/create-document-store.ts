import { connectMongoDocumentStore, SqliteDocumentStore, type DocumentStore } from '../document-store';
import type { Logger } from '@lomo/observability';
import type { ProjectorSettings } from './projector-settings';

/** MongoDB (or FerretDB) when MONGODB_URL is set, else the embedded SQLite file. */
export async function createDocumentStore(settings: ProjectorSettings, logger: Logger): Promise<DocumentStore> {
  if (settings.mongodbUrl !== undefined) {
    const store = await connectMongoDocumentStore({ url: settings.mongodbUrl, databaseName: settings.mongodbDatabase });
    logger.info(
      { component: 'projector', documentStore: 'mongodb', database: settings.mongodbDatabase },
      'read models on MongoDB',
    );
    return store;
  }
  logger.info({ component: 'projector', documentStore: 'sqlite', file: settings.sqlitePath }, 'read models on SQLite');
  return new SqliteDocumentStore({ filename: settings.sqlitePath });
}
