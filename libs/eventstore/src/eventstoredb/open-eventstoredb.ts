import type { EventStoreDbEventStore, EventStoreDbEventStoreOptions } from './eventstoredb-event-store';

/**
 * The EventStoreDB adapter, loaded on first use: its client (gRPC and protobuf) takes tens of
 * milliseconds to load, which every process and test file importing this library would
 * otherwise pay, SQLite deployments included.
 */
export async function openEventStoreDb(options: EventStoreDbEventStoreOptions): Promise<EventStoreDbEventStore> {
  const { EventStoreDbEventStore: Store } = await import('./eventstoredb-event-store');
  return new Store(options);
}
