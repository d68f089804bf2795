import type { LomoConfig } from '@lomo/config';
import type { Logger } from '@lomo/observability';
import { connectMongoDocumentStore, SqliteDocumentStore, type DocumentStore } from '@lomo/read-models';
import type { ApiTokenStore } from './api-token-store.port';
import { CachingApiTokenStore } from './caching-api-token-store';
import { DocumentApiTokenStore } from './document-api-token-store';
import { migrateSqliteTokens } from './migrate-sqlite-tokens';

export interface AuthSettings {
  /** The read models' store: MongoDB when set, else the SQLite read-model file. */
  mongodbUrl: string | undefined;
  mongodbDatabase: string;
  readModelsPath: string;
  /** The per-process token file of earlier versions, migrated at start when present. */
  legacySqlitePath: string;
  /** How long a live lookup is remembered: the bound on a revocation reaching this instance. */
  tokenCacheMs: number;
}

export function authSettings(
  config: Pick<
    LomoConfig,
    'MONGODB_URL' | 'MONGODB_DATABASE' | 'LOMO_READ_MODELS_PATH' | 'LOMO_AUTH_SQLITE_PATH' | 'LOMO_AUTH_TOKEN_CACHE_MS'
  >,
): AuthSettings {
  return {
    mongodbUrl: config.MONGODB_URL,
    mongodbDatabase: config.MONGODB_DATABASE,
    readModelsPath: config.LOMO_READ_MODELS_PATH,
    legacySqlitePath: config.LOMO_AUTH_SQLITE_PATH,
    tokenCacheMs: config.LOMO_AUTH_TOKEN_CACHE_MS,
  };
}

async function openTokenDocuments(settings: AuthSettings): Promise<DocumentStore> {
  if (settings.mongodbUrl !== undefined) {
    return connectMongoDocumentStore({ url: settings.mongodbUrl, databaseName: settings.mongodbDatabase });
  }
  // Its own connection to the read-model file, with FULL: the read models' NORMAL could lose a
  // revocation on power loss, and read models can be rebuilt from the log, tokens cannot.
  return new SqliteDocumentStore({ filename: settings.readModelsPath, synchronous: 'FULL' });
}

/**
 * The token store the API and `lomo tokens` use in every mode: documents in the read-model store,
 * the old token file migrated first (migrate-sqlite-tokens.ts), a bounded cache in front when
 * `tokenCacheMs` > 0 (caching-api-token-store.ts).
 */
export async function openApiTokenStore(
  settings: AuthSettings,
  logger: Logger,
  options: { cache?: boolean } = {},
): Promise<ApiTokenStore> {
  const store = new DocumentApiTokenStore(await openTokenDocuments(settings), { ownsDocuments: true });
  try {
    await migrateSqliteTokens(settings.legacySqlitePath, store, logger);
  } catch (error) {
    await store.close();
    throw error;
  }
  logger.info(
    {
      component: 'auth',
      tokenStore: settings.mongodbUrl !== undefined ? 'mongodb' : 'sqlite',
      tokenCacheMs: settings.tokenCacheMs,
    },
    'API tokens in the document store',
  );
  return options.cache === false || settings.tokenCacheMs === 0
    ? store
    : new CachingApiTokenStore(store, settings.tokenCacheMs);
}
