import type { BusLogger } from '../logger';

/**
 * Consumer group timing, chosen for a 2-core machine that also runs the broker:
 * - sessionTimeout 30 s: a GC pause or a CPU-starved event loop must not get a live instance
 *   evicted (eviction moves its partitions and redelivers its batch);
 * - heartbeatInterval 1 s: kafkajs only notices a rebalance on a heartbeat, so this bounds how
 *   long a scale-out or a leaving instance waits for the others to rejoin; a heartbeat is one tiny
 *   request per second per instance;
 * - rebalanceTimeout 15 s: how long the broker waits for members to rejoin; members abort their
 *   handlers on revocation, so only a handler that ignores its signal can take that long;
 * - maxWaitTime 500 ms: an idle fetch blocks this long, and kafkajs heartbeats and stops only
 *   between fetches, so it bounds stop() and rebalance latency while idle.
 */
export const KAFKA_CONSUMER_DEFAULTS = {
  sessionTimeoutMs: 30_000,
  heartbeatIntervalMs: 1_000,
  rebalanceTimeoutMs: 15_000,
  maxWaitTimeMs: 500,
  /** Fetch size per partition; with ~300-byte messages about 3 000 messages per batch. */
  maxBytesPerPartition: 1_048_576,
  /** Batches of different partitions handled at once; order within a partition is kept anyway. */
  partitionsConsumedConcurrently: 2,
  /** subscribe() fails with BusUnavailableError when the group cannot be joined in this time. */
  joinTimeoutMs: 60_000,
} as const;

/**
 * kafkajs' own retries (exponential with jitter) for requests of the producer, consumers and
 * admin client. They ride out a broker restart of a few seconds; a publish that still fails
 * rejects with BusUnavailableError and the caller decides.
 */
export const KAFKA_RETRY_DEFAULTS = {
  initialRetryTimeMs: 200,
  maxRetryTimeMs: 5_000,
  retries: 8,
} as const;

export const KAFKA_CONNECTION_DEFAULTS = {
  connectionTimeoutMs: 3_000,
  requestTimeoutMs: 30_000,
  /** Broker-side wait for the in-sync replicas' acknowledgement of a produce request. */
  produceAckTimeoutMs: 30_000,
} as const;

export const DEFAULT_DEAD_LETTER_TOPIC = 'lomo.deadletters';

export type KafkaLogLevel = 'nothing' | 'error' | 'warn' | 'info' | 'debug';

export interface KafkaConsumerTuning {
  sessionTimeoutMs: number;
  heartbeatIntervalMs: number;
  rebalanceTimeoutMs: number;
  maxWaitTimeMs: number;
  maxBytesPerPartition: number;
  partitionsConsumedConcurrently: number;
  joinTimeoutMs: number;
}

export interface KafkaRetryTuning {
  initialRetryTimeMs: number;
  maxRetryTimeMs: number;
  retries: number;
}

export interface KafkaEventBusOptions {
  /** host:port pairs, e.g. ["127.0.0.1:9092"]. */
  brokers: readonly string[];
  /** Prefix of every kafkajs client id of this bus (they show up in broker logs). */
  clientId?: string;
  /** Replication factor of the topics ensureTopics creates (1 on a single broker). */
  replicationFactor?: number;
  /** One topic, one partition, keyed by group id: dead letters of every group, oldest first. */
  deadLetterTopic?: string;
  logger?: BusLogger;
  /** Level below which kafkajs' own log lines are dropped. Default: warn. */
  kafkaLogLevel?: KafkaLogLevel;
  consumer?: Partial<KafkaConsumerTuning>;
  retry?: Partial<KafkaRetryTuning>;
  connectionTimeoutMs?: number;
  requestTimeoutMs?: number;
  produceAckTimeoutMs?: number;
}
