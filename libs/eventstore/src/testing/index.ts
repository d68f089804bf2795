// Test support for @lomo/eventstore: the shared contract suite, harnesses and sample events.
export * from './event-store.contract';
export * from './event-store-harness';
export * from './sample-events';
export * from './sqlite-harness';
export * from './wait-until';
export * from '../eventstoredb/testing/eventstoredb-harness';
export * from '../eventstoredb/testing/fake-esdb-server';
export { EventStoreDbEventStore } from '../eventstoredb/eventstoredb-event-store';
