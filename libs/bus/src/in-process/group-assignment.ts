import type { TopicPartition } from '../event-bus.port';
import type { GroupMember } from './group-coordinator';

/**
 * Round-robin over every (topic, partition) the group consumes, like Kafka's RoundRobinAssignor.
 * Pure and deterministic: every member computes the same answer from the same member list, so
 * no leader is needed.
 */
export function assignPartitions(
  members: readonly GroupMember[],
  partitionsOf: (topic: string) => number | undefined,
): Map<string, TopicPartition[]> {
  const sorted = [...members].sort((a, b) => (a.memberId < b.memberId ? -1 : a.memberId > b.memberId ? 1 : 0));
  const result = new Map<string, TopicPartition[]>(sorted.map((m) => [m.memberId, []]));
  const topics = [...new Set(sorted.flatMap((m) => m.topics))].sort();
  let turn = 0;
  for (const topic of topics) {
    const candidates = sorted.filter((m) => m.topics.includes(topic));
    const count = partitionsOf(topic) ?? 0;
    for (let partition = 0; partition < count; partition += 1) {
      const member = candidates[turn % candidates.length];
      result.get(member.memberId)?.push({ topic, partition });
      turn += 1;
    }
  }
  return result;
}
