import type { Admin, Kafka, RetryOptions } from 'kafkajs';
import { BusClosedError, UnknownTopicError } from '../errors';
import type {
  ConsumerHandle,
  DeadLetter,
  EventBus,
  OutgoingMessage,
  PartitionOffset,
  SubscribeOptions,
  TopicSpec,
} from '../event-bus.port';
import { noopBusLogger, type BusLogger } from '../logger';
import { serializeMessages } from '../message-validation';
import { DeadLetterTopic } from './dead-letter-topic';
import { createKafkaClient } from './kafka-client';
import { toKafkaMessages } from './kafka-codec';
import { KafkaConsumerInstance } from './kafka-consumer';
import { translateKafkaError } from './kafka-errors';
import {
  DEFAULT_DEAD_LETTER_TOPIC,
  KAFKA_CONNECTION_DEFAULTS,
  KAFKA_CONSUMER_DEFAULTS,
  KAFKA_RETRY_DEFAULTS,
  type KafkaConsumerTuning,
  type KafkaEventBusOptions,
} from './kafka-options';
import { KafkaPublisher } from './kafka-publisher';
import { KafkaTopics } from './kafka-topics';
import { validateSubscription } from './subscription-validation';

/**
 * The distributed-mode bus on Apache Kafka through kafkajs. One Kafka client per bus: a lazily
 * connected admin client, one idempotent producer, one kafkajs consumer per subscribe().
 */
export class KafkaEventBus implements EventBus {
  private readonly kafka: Kafka;
  private readonly logger: BusLogger;
  private readonly tuning: KafkaConsumerTuning;
  private readonly retry: RetryOptions;
  private readonly topics: KafkaTopics;
  private readonly publisher: KafkaPublisher;
  private readonly deadLetters: DeadLetterTopic;
  private readonly consumers = new Set<KafkaConsumerInstance>();
  private adminClient: Promise<Admin> | undefined;
  private closing: Promise<void> | undefined;

  constructor(options: KafkaEventBusOptions) {
    this.logger = options.logger ?? noopBusLogger;
    this.tuning = { ...KAFKA_CONSUMER_DEFAULTS, ...options.consumer };
    const client = createKafkaClient(options, { clientId: 'lomo', retry: KAFKA_RETRY_DEFAULTS }, this.logger);
    this.kafka = client.kafka;
    this.retry = client.retry;
    const admin = () => this.admin();
    this.topics = new KafkaTopics(admin, options.replicationFactor ?? 1, this.logger);
    this.publisher = new KafkaPublisher({
      kafka: this.kafka,
      retry: this.retry,
      ackTimeoutMs: options.produceAckTimeoutMs ?? KAFKA_CONNECTION_DEFAULTS.produceAckTimeoutMs,
      logger: this.logger,
    });
    this.deadLetters = new DeadLetterTopic({
      kafka: this.kafka,
      admin,
      topics: this.topics,
      publisher: this.publisher,
      topic: options.deadLetterTopic ?? DEFAULT_DEAD_LETTER_TOPIC,
      readTimeoutMs: this.tuning.joinTimeoutMs,
      logger: this.logger,
    });
  }

  async ensureTopics(topics: readonly TopicSpec[]): Promise<void> {
    this.assertOpen();
    await this.topics.ensure(topics);
  }

  async publish(topic: string, messages: readonly OutgoingMessage[]): Promise<void> {
    this.assertOpen();
    await this.topics.partitionsOf(topic);
    const values = serializeMessages(messages);
    if (messages.length === 0) return;
    await this.publisher.send(topic, toKafkaMessages(messages, values));
  }

  async subscribe(options: SubscribeOptions): Promise<ConsumerHandle> {
    this.assertOpen();
    validateSubscription(options);
    const topics = [...new Set(options.topics)];
    for (const topic of topics) await this.topics.partitionsOf(topic);
    await this.deadLetters.ensure();
    const consumer = new KafkaConsumerInstance({
      kafka: this.kafka,
      admin: () => this.admin(),
      subscription: { ...options, topics },
      tuning: this.tuning,
      retry: this.retry,
      deadLetters: this.deadLetters,
      logger: this.logger,
      onStopped: (c) => this.consumers.delete(c),
    });
    this.consumers.add(consumer);
    await consumer.start();
    this.logger.info({ groupId: options.groupId, memberId: consumer.memberId, topics }, 'bus consumer joined');
    return consumer;
  }

  async committedOffsets(groupId: string, topic: string): Promise<PartitionOffset[]> {
    this.assertOpen();
    await this.topics.partitionsOf(topic);
    try {
      const admin = await this.admin();
      const [offsets] = await admin.fetchOffsets({ groupId, topics: [topic] });
      if (!offsets) throw new UnknownTopicError(topic);
      return offsets.partitions
        .map((p) => ({ partition: p.partition, offset: Number(p.offset) >= 0 ? Number(p.offset) : null }))
        .sort((a, b) => a.partition - b.partition);
    } catch (error) {
      throw translateKafkaError(error, `fetch offsets of ${groupId}`);
    }
  }

  async endOffsets(topic: string): Promise<PartitionOffset[]> {
    this.assertOpen();
    await this.topics.partitionsOf(topic);
    try {
      const admin = await this.admin();
      const offsets = await admin.fetchTopicOffsets(topic);
      return offsets
        .map((o) => ({ partition: o.partition, offset: Number(o.high) }))
        .sort((a, b) => a.partition - b.partition);
    } catch (error) {
      throw translateKafkaError(error, `fetch end offsets of ${topic}`);
    }
  }

  async readDeadLetters(groupId?: string): Promise<DeadLetter[]> {
    this.assertOpen();
    return this.deadLetters.read(groupId);
  }

  close(): Promise<void> {
    this.closing ??= this.shutdown();
    return this.closing;
  }

  private async shutdown(): Promise<void> {
    await Promise.all([...this.consumers].map((c) => c.stop()));
    await this.publisher.close();
    const admin = this.adminClient;
    this.adminClient = undefined;
    if (admin) await admin.then((a) => a.disconnect()).catch(() => undefined);
  }

  private admin(): Promise<Admin> {
    if (this.closing) return Promise.reject(new BusClosedError());
    if (!this.adminClient) {
      const admin = this.kafka.admin({ retry: this.retry });
      const connecting = admin.connect().then(() => admin);
      this.adminClient = connecting;
      // The next call tries again instead of reusing a failed connection attempt.
      connecting.catch((error: unknown) => {
        if (this.adminClient === connecting) this.adminClient = undefined;
        this.logger.warn(
          { err: error instanceof Error ? error.message : String(error) },
          'kafka admin client could not connect',
        );
      });
    }
    return this.adminClient.catch((error: unknown) => {
      throw translateKafkaError(error, 'connect admin client');
    });
  }

  private assertOpen(): void {
    if (this.closing) throw new BusClosedError();
  }
}

export function createKafkaEventBus(options: KafkaEventBusOptions): KafkaEventBus {
  return new KafkaEventBus(options);
}
