export * from './event-bus.port';
export * from './errors';
export { noopBusLogger, type BusLogger } from './logger';
export { partitionFor, murmur2 } from './partitioner';
export { serializeMessages, validateTopicSpecs, describeHandlerError } from './message-validation';
export { InProcessEventBus, type InProcessEventBusOptions } from './in-process/in-process-event-bus';
export type { ConsumerTiming } from './in-process/in-process-consumer';
export { SqliteBusLog, type SqliteBusLogOptions } from './in-process/sqlite-bus-log';
export { EventRelay, type EventRelayOptions, type RelayStats } from './relay/event-relay';
export {
  DEFAULT_RELAY_TOPIC_PREFIX,
  RelayHeaders,
  relayTopicFor,
  toRelayedMessage,
  relayedEventOf,
  eventIdOf,
} from './relay/relayed-message';
export { dedupeByEventId, InMemoryProcessedEventIds, type ProcessedEventIds } from './relay/dedupe-by-event-id';
// Test support (defines jest suites only when called; no test-framework import at load time).
export {
  describeEventBusContract,
  type EventBusContractTiming,
  type EventBusHarness,
  type EventBusHarnessFactory,
} from './testing/event-bus.contract';
export { InMemoryEventStore } from './testing/in-memory-event-store';
export { waitFor } from './testing/wait-for';
export { createKafkaEventBus, KafkaEventBus, type KafkaEventBusOptions } from './kafka';
