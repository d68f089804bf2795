export { createKafkaEventBus, KafkaEventBus } from './kafka-event-bus';
export {
  DEFAULT_DEAD_LETTER_TOPIC,
  KAFKA_CONNECTION_DEFAULTS,
  KAFKA_CONSUMER_DEFAULTS,
  KAFKA_RETRY_DEFAULTS,
  type KafkaConsumerTuning,
  type KafkaEventBusOptions,
  type KafkaLogLevel,
  type KafkaRetryTuning,
} from './kafka-options';
export { translateKafkaError } from './kafka-errors';
