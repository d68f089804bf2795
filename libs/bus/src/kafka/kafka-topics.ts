import { retry } from '@lomo/resilience';
import type { Admin, ITopicConfig } from 'kafkajs';
import { TopicConflictError, UnknownTopicError } from '../errors';
import type { TopicSpec } from '../event-bus.port';
import type { BusLogger } from '../logger';
import { validateTopicSpecs } from '../message-validation';
import { isTopicMissing, translateKafkaError } from './kafka-errors';

/**
 * The broker stamps each record with its append time, which is what ReceivedMessage.timestamp
 * promises ("when the bus accepted it"); producer clocks would not.
 */
const topicConfig = [{ name: 'message.timestamp.type', value: 'LogAppendTime' }];

/**
 * A broker that has just started (or just created the topic) may answer the leader lookup that
 * follows a creation with UNKNOWN_TOPIC_OR_PARTITION until its metadata has caught up.
 */
const creationBackoff = { initialDelayMs: 200, maxDelayMs: 2_000, maxAttempts: 8 };

/**
 * Topic creation and lookups through the admin client. Partition counts are cached once seen:
 * a topic's count never changes under this bus (ensureTopics refuses to change it).
 */
export class KafkaTopics {
  private readonly partitionCounts = new Map<string, number>();

  constructor(
    private readonly admin: () => Promise<Admin>,
    private readonly replicationFactor: number,
    private readonly logger: BusLogger,
  ) {}

  async ensure(specs: readonly TopicSpec[]): Promise<void> {
    validateTopicSpecs(specs);
    const wanted = new Map<string, number>();
    for (const spec of specs) {
      const earlier = wanted.get(spec.name);
      if (earlier !== undefined && earlier !== spec.partitions)
        throw new TopicConflictError(spec.name, earlier, spec.partitions);
      wanted.set(spec.name, spec.partitions);
    }
    if (wanted.size === 0) return;
    const existing = await this.describe([...wanted.keys()]);
    const missing = [...wanted].filter(([name]) => !existing.has(name));
    if (missing.length > 0) await this.create(missing.map(([name, partitions]) => ({ name, partitions })));
    // Read back even what we just created: a concurrent creator may have won with another count.
    const actual = missing.length > 0 ? await this.describe([...wanted.keys()]) : existing;
    for (const [name, partitions] of wanted) {
      const count = actual.get(name);
      if (count === undefined) throw new UnknownTopicError(name);
      if (count !== partitions) throw new TopicConflictError(name, count, partitions);
    }
  }

  /** The topic's partition count; UnknownTopicError when it does not exist. */
  async partitionsOf(topic: string): Promise<number> {
    const cached = this.partitionCounts.get(topic);
    if (cached !== undefined) return cached;
    const count = (await this.describe([topic])).get(topic);
    if (count === undefined) throw new UnknownTopicError(topic);
    return count;
  }

  async exists(topic: string): Promise<boolean> {
    return this.partitionCounts.has(topic) || (await this.describe([topic])).has(topic);
  }

  /** Partition counts of those of `names` that exist. */
  private async describe(names: readonly string[]): Promise<Map<string, number>> {
    const counts = new Map<string, number>();
    const unknown = names.filter((n) => {
      const cached = this.partitionCounts.get(n);
      if (cached !== undefined) counts.set(n, cached);
      return cached === undefined;
    });
    if (unknown.length === 0) return counts;
    try {
      const admin = await this.admin();
      // Asking for the metadata of a missing topic makes kafkajs retry for seconds; list first.
      const all = new Set(await admin.listTopics());
      const present = unknown.filter((n) => all.has(n));
      if (present.length === 0) return counts;
      const { topics } = await admin.fetchTopicMetadata({ topics: present });
      for (const t of topics) {
        this.partitionCounts.set(t.name, t.partitions.length);
        counts.set(t.name, t.partitions.length);
      }
      return counts;
    } catch (error) {
      if (isTopicMissing(error)) return counts;
      throw translateKafkaError(error, 'topic lookup');
    }
  }

  private async create(specs: readonly TopicSpec[]): Promise<void> {
    const topics: ITopicConfig[] = specs.map((s) => ({
      topic: s.name,
      numPartitions: s.partitions,
      replicationFactor: this.replicationFactor,
      configEntries: topicConfig,
    }));
    try {
      const admin = await this.admin();
      // kafkajs returns false when every topic already existed (another bus was faster, or our
      // own earlier try got as far as creating it).
      const created = await retry(() => admin.createTopics({ topics, waitForLeaders: true }), {
        ...creationBackoff,
        isRetriable: isTopicMissing,
        onRetry: (error, attempt, delayMs) =>
          this.logger.warn(
            { topics: specs.map((s) => s.name), attempt, delayMs, err: String(error) },
            'kafka topic not visible yet after creation; asking again',
          ),
      });
      this.logger.info({ topics: specs.map((s) => s.name), created }, 'kafka topics ensured');
    } catch (error) {
      // A mix of created and already-existing topics fails as a whole; one by one sorts it out.
      if (specs.length > 1) {
        for (const spec of specs) await this.create([spec]);
        return;
      }
      throw translateKafkaError(error, `create topic ${specs[0]?.name ?? ''}`);
    }
  }
}
