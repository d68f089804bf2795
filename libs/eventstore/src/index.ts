export * from './event-store.port';
export { validateAppendRequest, expectationHolds } from './append-request';
export {
  SqliteEventStore,
  DEFAULT_POLL_INTERVAL_MS,
  DEFAULT_SUBSCRIPTION_BATCH_SIZE,
  type SqliteEventStoreOptions,
  type SqliteEventStoreHooks,
} from './sqlite/sqlite-event-store';
export {
  DEFAULT_SYNCHRONOUS,
  DEFAULT_BUSY_TIMEOUT_MS,
  applyPragmas,
  type SynchronousMode,
} from './sqlite/sqlite-schema';
export { openEventStoreDb } from './eventstoredb/open-eventstoredb';
export type { EventStoreDbEventStore, EventStoreDbEventStoreOptions } from './eventstoredb/eventstoredb-event-store';
export { StoreAccessDeniedError, StreamDeletedError, StoreFailureError } from './eventstoredb/eventstoredb-errors';
