import * as path from 'node:path';
import { MongoClient } from 'mongodb';
import { MongoSearchIndex } from './mongodb/mongo-search-index';
import type { SearchIndex } from './search-index.port';
import { SqliteSearchIndex } from './sqlite/sqlite-search-index';

export interface SearchIndexSettings {
  mongodbUrl?: string;
  mongodbDatabase: string;
  /** The read-model SQLite file; the search index lives next to it (`search.sqlite`). */
  sqlitePath: string;
  dimensions: number;
}

/**
 * The search index beside the read models: MongoDB (or FerretDB) when MONGODB_URL is set, else a
 * SQLite file next to the read-model file. One instance per process: the SQLite adapter's vector
 * cache sees only its own writes, so the embedded default shares one between projector and router.
 */
export async function createSearchIndex(
  settings: SearchIndexSettings,
): Promise<SearchIndex & { close?(): Promise<void> | void }> {
  if (settings.mongodbUrl !== undefined) {
    const client = await new MongoClient(settings.mongodbUrl, { serverSelectionTimeoutMS: 15_000 }).connect();
    const index = new MongoSearchIndex({ db: client.db(settings.mongodbDatabase), dimensions: settings.dimensions });
    return Object.assign(index, { close: () => client.close() });
  }
  const file = path.join(path.dirname(settings.sqlitePath), 'search.sqlite');
  return new SqliteSearchIndex({ database: file, dimensions: settings.dimensions });
}
