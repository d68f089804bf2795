import type { Admin } from 'kafkajs';

export type Assignment = Record<string, number[]>;

export interface StartOffset {
  topic: string;
  partition: number;
  offset: string;
}

/**
 * Where a group without a committed offset starts when it does not read from the beginning:
 * the end of each such partition right now. The consumer commits these at once ("pins" them).
 * kafkajs would otherwise keep its "latest" position only in memory, so if the partition moved
 * to another instance before a first message was handled, that instance would look up "latest"
 * again and silently skip whatever was published in between.
 */
export async function unpinnedEndOffsets(
  admin: Admin,
  groupId: string,
  assignment: Assignment,
): Promise<StartOffset[]> {
  const topics = Object.keys(assignment).filter((t) => assignment[t].length > 0);
  if (topics.length === 0) return [];
  const committed = await admin.fetchOffsets({ groupId, topics });
  const pins: StartOffset[] = [];
  for (const { topic, partitions } of committed) {
    const unpinned = partitions
      .filter((p) => assignment[topic]?.includes(p.partition) && Number(p.offset) < 0)
      .map((p) => p.partition);
    if (unpinned.length === 0) continue;
    const ends = await admin.fetchTopicOffsets(topic);
    for (const partition of unpinned) {
      const end = ends.find((e) => e.partition === partition);
      if (end) pins.push({ topic, partition, offset: end.high });
    }
  }
  return pins;
}
