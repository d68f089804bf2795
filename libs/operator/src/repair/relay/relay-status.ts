import type { Caller } from '@lomo/auth';
import {
  DEFAULT_RELAY_TOPIC_PREFIX,
  UnknownTopicError,
  type EventBus,
  type PartitionOffset,
  type RelayLeaseStore,
} from '@lomo/bus';
import { streamCategories, WAKE_UP_TOPIC, type Clock } from '@lomo/contracts';
import type { EventStore } from '@lomo/eventstore';
import { assertOperator } from '../../access/operator-access';
import { KNOWN_CONSUMER_GROUPS } from './consumer-groups';

/** The relay's checkpoint subscriber and lease name (libs/platform/src/create-relay.ts). */
export const DEFAULT_RELAY_ID = 'bus-relay';
/** Counting the relay's lag reads the events after its checkpoint: at most this many. */
export const DEFAULT_LAG_LIMIT = 10_000;

export interface RelayStatusSources {
  events: Pick<EventStore, 'getCheckpoint' | 'headPosition' | 'readAll'>;
  bus: Pick<EventBus, 'committedOffsets' | 'endOffsets'>;
  /** Where relay instances elect the active one; absent when the relay runs without a lease. */
  lease?: Pick<RelayLeaseStore, 'current'>;
  clock: Clock;
}

export interface RelayStatusOptions {
  relayId?: string;
  topicPrefix?: string;
  /** Groups to report; default the apps' fixed groups (KNOWN_CONSUMER_GROUPS). */
  groups?: readonly string[];
  /** Topics to look at; default one per stream category under the prefix, and the wake-ups. */
  topics?: readonly string[];
  lagLimit?: number;
}

export interface RelayLeaseStatus {
  /** null once released: nobody holds it. */
  holder: string | null;
  epoch: number;
  expiresAt: string;
  /** Held and not expired by the clock now: an instance is active (or paused within its lease). */
  live: boolean;
}

export interface PartitionLag {
  partition: number;
  /** The group's next offset, null when it never committed on the partition. */
  committed: number | null;
  end: number;
  lag: number;
}

export interface TopicLag {
  topic: string;
  lag: number;
  partitions: PartitionLag[];
}

export interface ConsumerGroupStatus {
  groupId: string;
  /** Messages published and not yet handled (or dead-lettered) by the group, over its topics. */
  lag: number;
  /** The topics the group has committed on; none when it never consumed (or does not run). */
  topics: TopicLag[];
}

export interface RelayStatus {
  relayId: string;
  topicPrefix: string;
  /** The position the relay published up to (its checkpoint), null before its first round. */
  checkpoint: string | null;
  head: string | null;
  /** Events in the store after the checkpoint; at least this many when `lagCapped`. */
  lagEvents: number;
  lagCapped: boolean;
  /** null: the relay runs without a lease (LOMO_RELAY off), or none was ever taken. */
  lease: RelayLeaseStatus | null;
  groups: ConsumerGroupStatus[];
}

/**
 * Where delivery stands, for an operator looking for a stuck piece: how far the relay is behind
 * the event store, who holds its lease until when, and per consumer group how far behind the
 * partition ends its committed offsets are. Reads only; operators only.
 */
export async function relayStatus(
  sources: RelayStatusSources,
  caller: Caller,
  options: RelayStatusOptions = {},
): Promise<RelayStatus> {
  assertOperator(caller, 'relay status');
  const relayId = options.relayId ?? DEFAULT_RELAY_ID;
  const topicPrefix = options.topicPrefix ?? DEFAULT_RELAY_TOPIC_PREFIX;
  const lagLimit = options.lagLimit ?? DEFAULT_LAG_LIMIT;
  const topics = options.topics ?? [...streamCategories.map((c) => `${topicPrefix}${c}`), WAKE_UP_TOPIC];
  const [checkpoint, head, lease] = await Promise.all([
    sources.events.getCheckpoint(relayId),
    sources.events.headPosition(),
    sources.lease?.current(relayId),
  ]);
  // Positions are opaque: the lag is counted by reading what comes after the checkpoint.
  const after = await sources.events.readAll({ fromPosition: checkpoint ?? 'start', maxCount: lagLimit + 1 });
  const ends = await endsOf(sources.bus, topics);
  const groups: ConsumerGroupStatus[] = [];
  for (const groupId of options.groups ?? KNOWN_CONSUMER_GROUPS) {
    groups.push(await groupStatus(sources.bus, groupId, ends));
  }
  return {
    relayId,
    topicPrefix,
    checkpoint: checkpoint ?? null,
    head: head ?? null,
    lagEvents: Math.min(after.length, lagLimit),
    lagCapped: after.length > lagLimit,
    lease:
      lease === undefined
        ? null
        : {
            holder: lease.holder === '' ? null : lease.holder,
            epoch: lease.epoch,
            expiresAt: new Date(lease.expiresAt).toISOString(),
            live: lease.holder !== '' && lease.expiresAt > sources.clock.now().getTime(),
          },
    groups,
  };
}

/** The ends of the topics that exist (a category nobody wrote to yet may have no topic). */
async function endsOf(
  bus: RelayStatusSources['bus'],
  topics: readonly string[],
): Promise<Map<string, PartitionOffset[]>> {
  const ends = new Map<string, PartitionOffset[]>();
  for (const topic of new Set(topics)) {
    try {
      ends.set(topic, await bus.endOffsets(topic));
    } catch (error) {
      if (!(error instanceof UnknownTopicError)) throw error;
    }
  }
  return ends;
}

async function groupStatus(
  bus: RelayStatusSources['bus'],
  groupId: string,
  ends: ReadonlyMap<string, PartitionOffset[]>,
): Promise<ConsumerGroupStatus> {
  const topics: TopicLag[] = [];
  for (const [topic, topicEnds] of ends) {
    const committed = await bus.committedOffsets(groupId, topic);
    if (committed.every((c) => c.offset === null)) continue;
    topics.push(topicLag(topic, committed, topicEnds));
  }
  return { groupId, lag: topics.reduce((sum, t) => sum + t.lag, 0), topics };
}

/** Pure: per partition, the end minus the committed offset (from 0 when never committed). */
export function topicLag(
  topic: string,
  committed: readonly PartitionOffset[],
  ends: readonly PartitionOffset[],
): TopicLag {
  const committedOf = new Map(committed.map((c) => [c.partition, c.offset]));
  const partitions = ends.map(({ partition, offset }) => {
    const end = offset ?? 0;
    const next = committedOf.get(partition) ?? null;
    return { partition, committed: next, end, lag: Math.max(0, end - (next ?? 0)) };
  });
  return { topic, lag: partitions.reduce((sum, p) => sum + p.lag, 0), partitions };
}
