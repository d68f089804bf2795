import { ValidationError } from '@lomo/contracts';
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
import { serializeMessages, validateTopicSpecs } from '../message-validation';
import { partitionFor } from '../partitioner';
import { InProcessConsumer, type ConsumerTiming } from './in-process-consumer';
import { SqliteBusLog, type SqliteBusLogOptions } from './sqlite-bus-log';

export interface InProcessEventBusOptions extends Partial<ConsumerTiming> {
  logger?: BusLogger;
}

const defaultTiming: ConsumerTiming = {
  pollIntervalMs: 200,
  heartbeatIntervalMs: 1000,
  sessionTimeoutMs: 10_000,
  batchSize: 100,
};

/**
 * The embedded-mode bus: Kafka's consumer-group semantics over a SQLite log (see SqliteBusLog).
 * Consumers in this process are woken on publish; consumers in other processes on the same file
 * find new messages at their next poll.
 */
export class InProcessEventBus implements EventBus {
  private readonly consumers = new Set<InProcessConsumer>();
  private readonly timing: ConsumerTiming;
  private readonly logger: BusLogger;
  private closed = false;

  /**
   * @param ownsLog close the log with the bus. A test passes false to "restart" a bus over a
   *   ':memory:' log that must outlive it.
   */
  constructor(
    private readonly log: SqliteBusLog,
    options: InProcessEventBusOptions = {},
    private readonly ownsLog = true,
  ) {
    const { logger, ...timing } = options;
    this.timing = { ...defaultTiming, ...stripUndefined(timing) };
    this.logger = logger ?? noopBusLogger;
  }

  static open(options: SqliteBusLogOptions & InProcessEventBusOptions): InProcessEventBus {
    const { filename, synchronous, busyTimeoutMs, ...busOptions } = options;
    return new InProcessEventBus(SqliteBusLog.open({ filename, synchronous, busyTimeoutMs }), busOptions);
  }

  async ensureTopics(topics: readonly TopicSpec[]): Promise<void> {
    this.assertOpen();
    validateTopicSpecs(topics);
    this.log.ensureTopics(topics);
  }

  async publish(topic: string, messages: readonly OutgoingMessage[]): Promise<void> {
    this.assertOpen();
    const partitions = this.partitionsOf(topic);
    const values = serializeMessages(messages);
    if (messages.length === 0) return;
    this.log.append(
      topic,
      messages.map((m, i) => ({
        partition: partitionFor(m.key, partitions),
        key: m.key,
        value: values[i],
        headers: JSON.stringify(m.headers ?? {}),
      })),
    );
  }

  async subscribe(options: SubscribeOptions): Promise<ConsumerHandle> {
    this.assertOpen();
    validateSubscription(options);
    for (const topic of options.topics) this.partitionsOf(topic);
    const consumer = new InProcessConsumer(
      this.log,
      { ...options, topics: [...new Set(options.topics)] },
      this.timing,
      this.logger,
      (c) => this.consumers.delete(c),
    );
    this.consumers.add(consumer);
    consumer.start();
    this.logger.info(
      { groupId: options.groupId, memberId: consumer.memberId, topics: options.topics },
      'bus consumer joined',
    );
    return consumer;
  }

  async committedOffsets(groupId: string, topic: string): Promise<PartitionOffset[]> {
    this.assertOpen();
    return this.log.committedOffsets(groupId, topic, this.partitionsOf(topic));
  }

  async endOffsets(topic: string): Promise<PartitionOffset[]> {
    this.assertOpen();
    return Array.from({ length: this.partitionsOf(topic) }, (_, partition) => ({
      partition,
      offset: this.log.endOffset(topic, partition),
    }));
  }

  async readDeadLetters(groupId?: string): Promise<DeadLetter[]> {
    this.assertOpen();
    return this.log.readDeadLetters(groupId);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all([...this.consumers].map((c) => c.stop()));
    if (this.ownsLog) this.log.close();
  }

  private partitionsOf(topic: string): number {
    const partitions = this.log.partitionCount(topic);
    if (partitions === undefined) throw new UnknownTopicError(topic);
    return partitions;
  }

  private assertOpen(): void {
    if (this.closed || !this.log.isOpen) throw new BusClosedError();
  }
}

function validateSubscription(options: SubscribeOptions): void {
  const issues: Array<{ path: string; message: string }> = [];
  if (!/^[A-Za-z0-9._-]{1,249}$/.test(options.groupId))
    issues.push({ path: 'groupId', message: 'group ids are 1-249 of [A-Za-z0-9._-]' });
  if (options.topics.length === 0) issues.push({ path: 'topics', message: 'at least one topic' });
  if (!Number.isInteger(options.maxAttempts) || options.maxAttempts < 1)
    issues.push({ path: 'maxAttempts', message: 'an integer >= 1' });
  if (typeof options.handler !== 'function') issues.push({ path: 'handler', message: 'a function' });
  if (issues.length > 0) throw new ValidationError('Invalid subscription', issues);
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
