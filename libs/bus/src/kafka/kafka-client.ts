import { Kafka } from 'kafkajs';
import type { BusLogger } from '../logger';
import { kafkaLogCreator, toKafkaLogLevel } from './kafka-log';
import { KAFKA_CONNECTION_DEFAULTS, type KafkaLogLevel, type KafkaRetryTuning } from './kafka-options';

/** The connection options the bus and the relay's transactional publisher both take. */
export interface KafkaClientOptions {
  brokers: readonly string[];
  clientId?: string;
  retry?: Partial<KafkaRetryTuning>;
  connectionTimeoutMs?: number;
  requestTimeoutMs?: number;
  kafkaLogLevel?: KafkaLogLevel;
}

/**
 * A kafkajs client whose log lines go to `logger`, and the kafkajs retry options it was made with
 * (its producers, consumers and admin client are given the same). `defaults` fill in the client
 * id and the retry tuning the options leave out.
 */
export function createKafkaClient(
  options: KafkaClientOptions,
  defaults: { clientId: string; retry: KafkaRetryTuning },
  logger: BusLogger,
): { kafka: Kafka; retry: { initialRetryTime: number; maxRetryTime: number; retries: number } } {
  const tuning = { ...defaults.retry, ...options.retry };
  const retry = {
    initialRetryTime: tuning.initialRetryTimeMs,
    maxRetryTime: tuning.maxRetryTimeMs,
    retries: tuning.retries,
  };
  const kafka = new Kafka({
    clientId: options.clientId ?? defaults.clientId,
    brokers: [...options.brokers],
    connectionTimeout: options.connectionTimeoutMs ?? KAFKA_CONNECTION_DEFAULTS.connectionTimeoutMs,
    requestTimeout: options.requestTimeoutMs ?? KAFKA_CONNECTION_DEFAULTS.requestTimeoutMs,
    retry,
    logLevel: toKafkaLogLevel(options.kafkaLogLevel ?? 'warn'),
    logCreator: kafkaLogCreator(logger),
  });
  return { kafka, retry };
}
