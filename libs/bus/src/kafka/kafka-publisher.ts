import type { Kafka, Message, Producer, RetryOptions } from 'kafkajs';
import type { BusLogger } from '../logger';
import { partitionFor } from '../partitioner';
import { translateKafkaError } from './kafka-errors';

/** kafkajs' partitioner hook, running the bus's own murmur2 so both adapters place keys alike. */
export const sharedKeyPartitioner = () => (args: { partitionMetadata: readonly unknown[]; message: Message }) =>
  partitionFor(String(args.message.key ?? ''), args.partitionMetadata.length);

export interface PublisherConfig {
  kafka: Kafka;
  retry: RetryOptions;
  ackTimeoutMs: number;
  logger: BusLogger;
}

/**
 * The bus's one idempotent producer (acks from all in-sync replicas, one request in flight per
 * broker, so a retried request is deduplicated by the broker and order per partition holds).
 *
 * After a failed send the producer is replaced. kafkajs rolls its sequence numbers back when a
 * request fails; if the write did happen (a timeout after the broker appended, retries exhausted
 * on a lost response), the next batch would reuse those numbers and the broker would drop it as a
 * duplicate while acknowledging it: silent loss. A new producer gets a new producer id and fresh
 * sequences, so at worst the caller's retry duplicates, as the port allows.
 */
export class KafkaPublisher {
  private current: Promise<Producer> | undefined;
  private generation = 0;

  constructor(private readonly config: PublisherConfig) {}

  async send(topic: string, messages: Message[]): Promise<void> {
    const pending = this.producer();
    let producer: Producer;
    try {
      producer = await pending;
    } catch (error) {
      this.discard(pending, error);
      throw translateKafkaError(error, `connect producer for ${topic}`);
    }
    try {
      await producer.send({ topic, messages, acks: -1, timeout: this.config.ackTimeoutMs });
    } catch (error) {
      this.discard(pending, error);
      throw translateKafkaError(error, `publish to ${topic}`);
    }
  }

  async close(): Promise<void> {
    const pending = this.current;
    this.current = undefined;
    if (!pending) return;
    try {
      await (await pending).disconnect();
    } catch {
      // Never connected, or the broker is gone: nothing left to release.
    }
  }

  private producer(): Promise<Producer> {
    if (!this.current) {
      this.generation += 1;
      const producer = this.config.kafka.producer({
        idempotent: true,
        maxInFlightRequests: 1,
        allowAutoTopicCreation: false,
        createPartitioner: sharedKeyPartitioner,
        retry: this.config.retry,
      });
      this.current = producer.connect().then(() => producer);
      // A failed connect is reported by send(); this only keeps it from being unhandled.
      this.current.catch(() => undefined);
    }
    return this.current;
  }

  private discard(pending: Promise<Producer>, error: unknown): void {
    // Concurrent sends on the same producer all fail together; replace it once.
    if (this.current !== pending) return;
    this.current = undefined;
    this.config.logger.warn(
      { err: error instanceof Error ? error.message : String(error), producerGeneration: this.generation },
      'kafka producer replaced after a failed send',
    );
    pending.then((p) => p.disconnect()).catch(() => undefined);
  }
}
