import type { Kafka, Producer, TopicMessages } from 'kafkajs';
import { type BusLogger, noopBusLogger } from '../logger';
import { serializeMessages } from '../message-validation';
import { RelayFencedError, RelayLeaseLapsedError } from '../relay/relay-errors';
import type { RelayBatch, RelayPublisher } from '../relay/relay-publisher.port';
import { createKafkaClient } from './kafka-client';
import { toKafkaMessages } from './kafka-codec';
import { translateKafkaError } from './kafka-errors';
import { isProducerFenced } from './kafka-fencing';
import {
  KAFKA_CONNECTION_DEFAULTS,
  KAFKA_RETRY_DEFAULTS,
  type KafkaLogLevel,
  type KafkaRetryTuning,
} from './kafka-options';
import { sharedKeyPartitioner } from './kafka-publisher';

/**
 * Right after a commit the coordinator is still writing the commit markers and answers the next
 * transaction's AddPartitionsToTxn with CONCURRENT_TRANSACTIONS, which kafkajs retries: a short
 * first retry keeps that from costing each round 200 ms; more retries still ride out a broker
 * restart as long as the bus's defaults do.
 */
export const TRANSACTIONAL_RETRY_DEFAULTS: KafkaRetryTuning = {
  ...KAFKA_RETRY_DEFAULTS,
  initialRetryTimeMs: 20,
  retries: 12,
};

/** The fixed transactional id of a relay: every instance of it shares it, so Kafka fences by it. */
export function relayTransactionalId(relayId: string): string {
  return `lomo-relay-${relayId}`;
}

export interface KafkaTransactionalPublisherOptions {
  brokers: readonly string[];
  /** Names the lease-holder's producer; `relayTransactionalId(relayId)`. */
  transactionalId: string;
  clientId?: string;
  /**
   * How long the coordinator lets a transaction stay open before aborting it. It bounds how long
   * a relay paused mid-transaction holds back read_committed consumers when no standby takes
   * over (a takeover aborts it at once). Default 30 s; the broker caps it (15 min by default).
   */
  transactionTimeoutMs?: number;
  retry?: Partial<KafkaRetryTuning>;
  connectionTimeoutMs?: number;
  requestTimeoutMs?: number;
  produceAckTimeoutMs?: number;
  logger?: BusLogger;
  kafkaLogLevel?: KafkaLogLevel;
  /** Runs between send and commit of every round. For crash drills: a window to pause or kill in. */
  afterSend?: (round: { epoch: number; messages: number }) => Promise<void>;
}

/**
 * The leased relay's Kafka output: each round is one transaction, committed before the relay
 * saves its checkpoint; consumers read with read_committed (kafkajs' default), so an aborted or
 * fenced round is never seen. activate() starts a new producer and initializes its transactional
 * id, which makes the coordinator bump the producer epoch: every older producer with that id,
 * a paused relay's included, is refused from then on (INVALID_PRODUCER_EPOCH), and a transaction
 * it left open is aborted.
 *
 * After any failure the producer is dropped (kafkajs leaves it in COMMITTING or ABORTING, where
 * every later call throws) and publish() refuses until the relay re-activates, which it does
 * only after re-confirming its lease: re-initializing on our own could fence a newer holder.
 */
export class KafkaTransactionalPublisher implements RelayPublisher {
  private readonly kafka: Kafka;
  private readonly logger: BusLogger;
  private readonly retry: { initialRetryTime: number; maxRetryTime: number; retries: number };
  private producer: Producer | undefined;
  private epoch: number | undefined;

  constructor(private readonly options: KafkaTransactionalPublisherOptions) {
    this.logger = options.logger ?? noopBusLogger;
    const client = createKafkaClient(
      options,
      { clientId: 'lomo-relay', retry: TRANSACTIONAL_RETRY_DEFAULTS },
      this.logger,
    );
    this.kafka = client.kafka;
    this.retry = client.retry;
  }

  async activate(epoch: number): Promise<void> {
    await this.drop();
    const producer = this.kafka.producer({
      transactionalId: this.options.transactionalId,
      transactionTimeout: this.options.transactionTimeoutMs ?? 30_000,
      idempotent: true,
      maxInFlightRequests: 1,
      allowAutoTopicCreation: false,
      createPartitioner: sharedKeyPartitioner,
      retry: this.retry,
    });
    try {
      await producer.connect();
      // kafkajs has no initTransactions(): its first transaction() sends InitProducerId. An empty
      // transaction ends locally (no EndTxn), so this only fences, and publishes nothing.
      const fencing = await producer.transaction();
      await fencing.abort();
    } catch (error) {
      await producer.disconnect().catch(() => undefined);
      throw translateKafkaError(error, `initialize transactional id ${this.options.transactionalId}`);
    }
    this.producer = producer;
    this.epoch = epoch;
    this.logger.info({ transactionalId: this.options.transactionalId, epoch }, 'relay transactional producer active');
  }

  async publish(batches: readonly RelayBatch[], epoch: number, signal?: AbortSignal): Promise<void> {
    const producer = this.producer;
    if (!producer || this.epoch !== epoch) {
      throw new RelayLeaseLapsedError(this.options.transactionalId, `no producer active for epoch ${epoch}`);
    }
    const topicMessages: TopicMessages[] = batches
      .filter((b) => b.messages.length > 0)
      .map((b) => ({ topic: b.topic, messages: toKafkaMessages(b.messages, serializeMessages(b.messages)) }));
    if (topicMessages.length === 0) return;
    try {
      const transaction = await producer.transaction();
      await transaction.sendBatch({
        topicMessages,
        acks: -1,
        timeout: this.options.produceAckTimeoutMs ?? KAFKA_CONNECTION_DEFAULTS.produceAckTimeoutMs,
      });
      const messages = topicMessages.reduce((n, t) => n + t.messages.length, 0);
      await this.options.afterSend?.({ epoch, messages });
      if (signal?.aborted) {
        await transaction.abort();
        throw new RelayLeaseLapsedError(this.options.transactionalId, 'lease lost before the commit');
      }
      await transaction.commit();
    } catch (error) {
      await this.drop();
      if (isProducerFenced(error)) {
        throw new RelayFencedError(this.options.transactionalId, epoch, 'Kafka fenced the producer epoch', error);
      }
      throw translateKafkaError(error, `commit a relay round as ${this.options.transactionalId}`);
    }
  }

  async close(): Promise<void> {
    await this.drop();
  }

  private async drop(): Promise<void> {
    const producer = this.producer;
    this.producer = undefined;
    this.epoch = undefined;
    // An open transaction it leaves is aborted by the next initialization or its timeout.
    await producer?.disconnect().catch(() => undefined);
  }
}
