import type { ConsumerHandle, DeliveryContext, EventBus, ReceivedMessage } from '../../event-bus.port';
import type { ContractFeed, ContractItem } from './contract-feeds';
import type { ContractContext } from './event-bus-harness';

export interface Delivery {
  instance: string;
  item: ContractItem;
  message: ReceivedMessage;
  attempt: number;
  /** Set when the handler returned (true) or threw (false). */
  ok?: boolean;
}

/** What a scenario's handler does besides recording; throwing fails the delivery. */
export type Behaviour = (
  item: ContractItem,
  message: ReceivedMessage,
  context: DeliveryContext,
) => Promise<void> | void;

/** Every delivery of every instance of a scenario, in the order handlers were called. */
export class DeliveryRecorder {
  readonly deliveries: Delivery[] = [];

  /** Deliveries whose handler succeeded, optionally of one instance or key. */
  handled(filter: { instance?: string; key?: string } = {}): Delivery[] {
    return this.deliveries.filter(
      (d) =>
        d.ok === true &&
        (filter.instance === undefined || d.instance === filter.instance) &&
        (filter.key === undefined || d.item.key === filter.key),
    );
  }

  /** Sequence numbers handled per key, in handling order. */
  seqsByKey(instance?: string): Map<string, number[]> {
    const out = new Map<string, number[]>();
    for (const d of this.handled({ instance })) out.set(d.item.key, [...(out.get(d.item.key) ?? []), d.item.seq]);
    return out;
  }

  async subscribe(
    ctx: ContractContext,
    bus: EventBus,
    options: { groupId: string; feed: ContractFeed; instance: string; behaviour?: Behaviour; maxAttempts?: number },
  ): Promise<ConsumerHandle> {
    const handle = await bus.subscribe({
      groupId: options.groupId,
      topics: [options.feed.topic],
      maxAttempts: options.maxAttempts ?? 5,
      backoff: ctx.timing.backoff,
      fromBeginning: true,
      handler: async (message, context) => {
        const delivery: Delivery = {
          instance: options.instance,
          item: options.feed.decode(message),
          message,
          attempt: context.attempt,
        };
        this.deliveries.push(delivery);
        try {
          await options.behaviour?.(delivery.item, message, context);
          delivery.ok = true;
        } catch (error) {
          delivery.ok = false;
          throw error;
        }
      },
    });
    ctx.onCleanup(() => handle.stop());
    return handle;
  }
}

/** `count` keys named `<prefix><n>`, each with sequence numbers `from..to-1`, interleaved by sequence. */
export function interleaved(prefix: string, count: number, from: number, to: number): ContractItem[] {
  const items: ContractItem[] = [];
  for (let seq = from; seq < to; seq += 1) for (let k = 0; k < count; k += 1) items.push({ key: `${prefix}${k}`, seq });
  return items;
}

export const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

/** Sum of the group's committed offsets over the topic's partitions (nulls count as 0). */
export async function committedTotal(bus: EventBus, groupId: string, topic: string): Promise<number> {
  const offsets = await bus.committedOffsets(groupId, topic);
  return offsets.reduce((sum, o) => sum + (o.offset ?? 0), 0);
}

export async function committedOf(
  bus: EventBus,
  groupId: string,
  topic: string,
  partition: number,
): Promise<number | null> {
  const offsets = await bus.committedOffsets(groupId, topic);
  return offsets.find((o) => o.partition === partition)?.offset ?? null;
}
