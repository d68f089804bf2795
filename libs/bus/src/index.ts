export * from './event-bus.port';
export * from './errors';
export { REDRIVE_GROUP_HEADER, REDRIVE_OF_HEADER, isRedriveForAnotherGroup, redriveMessage } from './redrive-header';
export { noopBusLogger, type BusLogger } from './logger';
export { partitionFor, murmur2 } from './partitioner';
export { serializeMessages, validateTopicSpecs, describeHandlerError } from './message-validation';
export { InProcessEventBus, type InProcessEventBusOptions } from './in-process/in-process-event-bus';
export type { ConsumerTiming } from './in-process/in-process-consumer';
export { SqliteBusLog, type SqliteBusLogOptions } from './in-process/sqlite-bus-log';
export { EventRelay, type EventRelayOptions, type RelayState, type RelayStats } from './relay/event-relay';
export { RelayFencedError, RelayLeaseLapsedError, isRelayFenced } from './relay/relay-errors';
export type { RelayLease, RelayLeaseStore } from './relay/relay-lease.port';
export type { RelayLeaseOptions } from './relay/relay-lease-keeper';
export { SqliteRelayLeaseStore } from './relay/sqlite-relay-lease-store';
export type { RelayBatch, RelayPublisher } from './relay/relay-publisher.port';
export { BusRelayPublisher } from './relay/bus-relay-publisher';
export { SqliteFencedBusPublisher, type SqliteFencedBusPublisherOptions } from './relay/sqlite-fenced-bus-publisher';
export {
  DEFAULT_RELAY_TOPIC_PREFIX,
  RelayHeaders,
  relayTopicFor,
  toRelayedMessage,
  relayedEventOf,
  eventIdOf,
} from './relay/relayed-message';
export { dedupeByEventId, InMemoryProcessedEventIds, type ProcessedEventIds } from './relay/dedupe-by-event-id';
export { createKafkaEventBus, KafkaEventBus, type KafkaEventBusOptions } from './kafka';
export {
  KafkaTransactionalPublisher,
  relayTransactionalId,
  type KafkaTransactionalPublisherOptions,
} from './kafka/kafka-transactional-publisher';
export { isProducerFenced } from './kafka/kafka-fencing';
