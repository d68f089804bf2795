import { isConsumerGroupId } from '../relay/consumer-groups';

/** Where a dead letter is kept: the bus (a consumer group's), or the notifier (a webhook's). */
export type DeadLetterRef =
  | { kind: 'bus'; groupId: string; topic: string; partition: number; offset: number }
  | { kind: 'webhook'; deadLetterId: string };

const topicPattern = /^[A-Za-z0-9._-]{1,249}$/;
const webhookIdPattern = /^[A-Za-z0-9_-]{1,200}$/;
const count = /^(0|[1-9][0-9]{0,15})$/;

/**
 * The operator's id of a dead letter, stable across listings: a bus letter by its group and the
 * original message's position (`bus:<group>:<topic>:<partition>:<offset>`; neither group ids nor
 * topics may hold a colon), a webhook letter by its document id (`webhook:<id>`).
 */
export function formatDeadLetterId(ref: DeadLetterRef): string {
  return ref.kind === 'bus'
    ? `bus:${ref.groupId}:${ref.topic}:${ref.partition}:${ref.offset}`
    : `webhook:${ref.deadLetterId}`;
}

/** The reference an id names, or undefined for text that is no dead letter id. */
export function parseDeadLetterId(id: string): DeadLetterRef | undefined {
  const parts = id.split(':');
  if (parts[0] === 'webhook' && parts.length === 2 && webhookIdPattern.test(parts[1]))
    return { kind: 'webhook', deadLetterId: parts[1] };
  if (parts[0] !== 'bus' || parts.length !== 5) return undefined;
  const [, groupId, topic, partition, offset] = parts;
  if (!isConsumerGroupId(groupId) || !topicPattern.test(topic) || !count.test(partition) || !count.test(offset))
    return undefined;
  return { kind: 'bus', groupId, topic, partition: Number(partition), offset: Number(offset) };
}
