export * from './document-store.port';
export * from './document-store.errors';
export {
  SqliteDocumentStore,
  type SqliteDocumentStoreOptions,
  type SqliteSynchronous,
} from './sqlite/sqlite-document-store';
export {
  MongoDocumentStore,
  connectMongoDocumentStore,
  type MongoDocumentStoreOptions,
  type ConnectMongoDocumentStoreOptions,
} from './mongodb/mongo-document-store';
export { MONGODB_PROFILE, FERRETDB_PROFILE, type ServerProfile } from './mongodb/server-profile';
