import type { BackoffOptions } from '@lomo/resilience';

export const EVENT_BUS = Symbol('EVENT_BUS');

/**
 * The bus between apps, shaped after Kafka so the embedded in-process adapter and the kafkajs
 * adapter pass one contract suite (libs/bus/src/testing/event-bus.contract.ts).
 *
 * Topics are named and have a fixed number of partitions, created up front with `ensureTopics`
 * (a broker must never auto-create them: a mistyped name would silently lose messages).
 * A message goes to partition `toPositive(murmur2(utf8(key))) % partitions`, the hash Kafka's
 * Java client and kafkajs' default partitioner use, so one key always lands on one partition in
 * both modes. Order is kept per partition, hence per key, and nowhere else.
 *
 * Delivery is at least once. A consumer group sees every message once (modulo redelivery after
 * a crash); the instances of one group share the partitions and rebalance when instances join or
 * leave. The group's committed offset for a partition moves past a message only after the handler
 * succeeded or the message was dead-lettered. A message whose `lomo-redrive-group` header names a
 * group (a dead letter sent back by an operator: redrive-header.ts) goes to that group's handler
 * only; every other group commits past it unhandled.
 */
export interface EventBus {
  /**
   * Creates the topics that do not exist. Idempotent when the partition count matches; a topic
   * that exists with another count fails with TopicConflictError (changing it would move keys).
   */
  ensureTopics(topics: readonly TopicSpec[]): Promise<void>;
  /**
   * Resolves once every message is durably accepted. Messages of one key keep the order of the
   * array. Rejects with UnknownTopicError or InvalidMessageError before anything is written;
   * a rejection for another reason may leave part of the batch written (a retry can duplicate).
   */
  publish(topic: string, messages: readonly OutgoingMessage[]): Promise<void>;
  /** Resolves once the instance has joined its group; its assignment may still change later. */
  subscribe(options: SubscribeOptions): Promise<ConsumerHandle>;
  /**
   * The group's committed offset of each partition of the topic: the offset of the next message
   * it will consume (Kafka semantics), or null when the group never committed on it.
   */
  committedOffsets(groupId: string, topic: string): Promise<PartitionOffset[]>;
  /**
   * Each partition's end: the offset the next message published to it will get (0 when empty),
   * never null. With committedOffsets, how far a group is behind (`lomo relay status`).
   */
  endOffsets(topic: string): Promise<PartitionOffset[]>;
  /** Every dead-letter record of the group (of every group when omitted), oldest first. */
  readDeadLetters(groupId?: string): Promise<DeadLetter[]>;
  /** Stops the consumers this bus started (each as `stop()` does) and releases connections. */
  close(): Promise<void>;
}

export interface TopicSpec {
  name: string;
  partitions: number;
}

/** What a producer sends. `value` must survive JSON.stringify/JSON.parse unchanged. */
export interface OutgoingMessage {
  key: string;
  value: Readonly<Record<string, unknown>>;
  headers?: Readonly<Record<string, string>>;
}

export interface ReceivedMessage {
  topic: string;
  partition: number;
  /** Position in the partition, 0-based. Kafka's int64 offsets fit a double for decades. */
  offset: number;
  key: string;
  value: Record<string, unknown>;
  headers: Record<string, string>;
  /** When the bus accepted it, epoch milliseconds. */
  timestamp: number;
}

export interface DeliveryContext {
  groupId: string;
  /** 1 on the first delivery of this message to this instance, then 2, 3, ... on retries. */
  attempt: number;
  /**
   * Aborted when the instance stops or loses the partition. A handler may cut long work short;
   * whatever it then throws is neither retried nor dead-lettered: the message is redelivered.
   */
  signal: AbortSignal;
}

export type MessageHandler = (message: ReceivedMessage, context: DeliveryContext) => Promise<void>;

export interface SubscribeOptions {
  groupId: string;
  topics: readonly string[];
  handler: MessageHandler;
  /** Deliveries of one message (first one included) before it is dead-lettered. >= 1. */
  maxAttempts: number;
  /** Delay between attempts, through the shared backoff helper (exponential with jitter). */
  backoff: BackoffOptions;
  /**
   * Where a group with no committed offset on a partition starts: the first message (true) or
   * the end of the partition at the time the group first takes it (false, the default, as
   * Kafka's `auto.offset.reset=latest`).
   */
  fromBeginning?: boolean;
  /**
   * Which handler errors are worth another attempt. Default: every error, since a handler is
   * re-run from scratch (a conflict or a timeout may well pass). Others are dead-lettered at once.
   */
  isRetriable?: (error: unknown) => boolean;
}

export interface TopicPartition {
  topic: string;
  partition: number;
}

export interface ConsumerHandle {
  readonly groupId: string;
  /** Unique per instance; stable for the instance's life. */
  readonly memberId: string;
  /** The partitions this instance currently consumes (changes on rebalance). */
  assignment(): TopicPartition[];
  /**
   * Aborts backoff waits, waits for the handlers in flight, commits what they finished and leaves
   * the group, so the other instances take its partitions at once. Idempotent.
   */
  stop(): Promise<void>;
}

export interface PartitionOffset {
  partition: number;
  offset: number | null;
}

export interface DeadLetterError {
  /** LomoError's code, or HANDLER_FAILED for an untyped error. */
  code: string;
  message: string;
}

export interface DeadLetter {
  groupId: string;
  topic: string;
  message: ReceivedMessage;
  error: DeadLetterError;
  attempts: number;
  /** ISO 8601. */
  deadLetteredAt: string;
}
