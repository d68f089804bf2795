// Test support for @lomo/bus: the shared contract suite, an in-memory event store, waitFor.
export * from './event-bus.contract';
export { InMemoryEventStore } from './in-memory-event-store';
export { waitFor } from './wait-for';
export { subscribeWakeUps } from './wake-up-probe';
