import { randomUUID } from 'node:crypto';
import { retry } from '@lomo/resilience';
import type { Admin, Kafka } from 'kafkajs';
import { BusUnavailableError } from '../errors';
import type { DeadLetter } from '../event-bus.port';
import type { BusLogger } from '../logger';
import { decodeDeadLetter, encodeDeadLetter } from './kafka-codec';
import { translateKafkaError } from './kafka-errors';
import type { KafkaPublisher } from './kafka-publisher';
import type { KafkaTopics } from './kafka-topics';
import type { DeadLetterSink } from './message-delivery';

/** Writing a dead letter is what lets the partition move on, so it is retried until it lands. */
const writeBackoff = { initialDelayMs: 200, maxDelayMs: 5_000 };

export interface DeadLetterTopicConfig {
  kafka: Kafka;
  admin: () => Promise<Admin>;
  topics: KafkaTopics;
  publisher: KafkaPublisher;
  topic: string;
  readTimeoutMs: number;
  logger: BusLogger;
}

/**
 * Dead letters of every group in one single-partition topic keyed by group id, so "oldest first"
 * is the topic's order. Reading scans it from the start with a throw-away consumer group (kafkajs
 * has no group-less consumer), which is fine for an operator's occasional look.
 */
export class DeadLetterTopic implements DeadLetterSink {
  private ensured: Promise<void> | undefined;

  constructor(private readonly config: DeadLetterTopicConfig) {}

  ensure(): Promise<void> {
    if (!this.ensured) {
      this.ensured = this.config.topics.ensure([{ name: this.config.topic, partitions: 1 }]);
      this.ensured.catch(() => {
        this.ensured = undefined;
      });
    }
    return this.ensured;
  }

  async write(record: DeadLetter, signal: AbortSignal): Promise<boolean> {
    try {
      await retry(
        async () => {
          await this.ensure();
          await this.config.publisher.send(this.config.topic, [encodeDeadLetter(record)]);
        },
        {
          ...writeBackoff,
          maxAttempts: Number.POSITIVE_INFINITY,
          signal,
          isRetriable: () => !signal.aborted,
          onRetry: (error, attempt, delayMs) =>
            this.config.logger.error(
              {
                err: error instanceof Error ? error.message : String(error),
                groupId: record.groupId,
                topic: record.topic,
                attempt,
                delayMs,
              },
              'dead letter not written yet; the partition waits',
            ),
        },
      );
      return true;
    } catch (error) {
      if (signal.aborted) return false;
      throw error;
    }
  }

  /** The group's records, or every group's when `groupId` is undefined. */
  async read(groupId: string | undefined): Promise<DeadLetter[]> {
    const of = groupId ?? 'every group';
    const { topic } = this.config;
    if (!(await this.config.topics.exists(topic))) return [];
    let ends: Map<number, number>;
    try {
      const admin = await this.config.admin();
      const offsets = await admin.fetchTopicOffsets(topic);
      ends = new Map(offsets.filter((o) => Number(o.high) > Number(o.low)).map((o) => [o.partition, Number(o.high)]));
    } catch (error) {
      throw translateKafkaError(error, `read dead letters of ${of}`);
    }
    if (ends.size === 0) return [];
    const found = await this.scan(ends, groupId);
    return found
      .sort((a, b) => a.at.localeCompare(b.at) || a.partition - b.partition || a.offset - b.offset)
      .map((f) => f.record);
  }

  /** Reads every partition in `ends` up to its end offset; keeps the records of `groupId` (all when undefined). */
  private async scan(ends: Map<number, number>, groupId: string | undefined) {
    const of = groupId ?? 'every group';
    const { kafka, topic, readTimeoutMs } = this.config;
    const readerGroup = `lomo.dlt-reader.${randomUUID()}`;
    const consumer = kafka.consumer({ groupId: readerGroup, maxWaitTimeInMs: 100, allowAutoTopicCreation: false });
    const found: Array<{ record: DeadLetter; at: string; partition: number; offset: number }> = [];
    const remaining = new Set(ends.keys());
    let timer: NodeJS.Timeout | undefined;
    try {
      const complete = new Promise<void>((resolve, reject) => {
        timer = setTimeout(
          () => reject(new BusUnavailableError(`Dead letters of ${of} not read within ${readTimeoutMs} ms`)),
          readTimeoutMs,
        );
        consumer
          .connect()
          .then(() => consumer.subscribe({ topics: [topic], fromBeginning: true }))
          .then(() =>
            consumer.run({
              autoCommit: false,
              eachBatch: async ({ batch }) => {
                const end = ends.get(batch.partition) ?? 0;
                for (const m of batch.messages) {
                  const offset = Number(m.offset);
                  if (offset >= end) break;
                  const record = decodeDeadLetter(m);
                  if (record !== undefined && (groupId === undefined || record.groupId === groupId))
                    found.push({ record, at: record.deadLetteredAt, partition: batch.partition, offset });
                }
                if (Number(batch.lastOffset()) >= end - 1) remaining.delete(batch.partition);
                if (remaining.size === 0) resolve();
              },
            }),
          )
          .catch(reject);
      });
      await complete;
      return found;
    } catch (error) {
      throw translateKafkaError(error, `read dead letters of ${of}`);
    } finally {
      clearTimeout(timer);
      await consumer.disconnect().catch(() => undefined);
      // The reader never committed; dropping the group keeps the broker's group list clean.
      await this.config
        .admin()
        .then((admin) => admin.deleteGroups([readerGroup]))
        .catch(() => undefined);
    }
  }
}
