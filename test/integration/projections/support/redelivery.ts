import fc from 'fast-check';
import type { EventEnvelope } from '@lomo/contracts';

export interface Redelivery {
  /** How many times each event (in log order) is delivered: 1 to 3. */
  copies: number[];
  /** Which stream delivers next, modulo the streams that still have something to deliver. */
  picks: number[];
  /** Sizes of the batches the deliveries are cut into (cycled). */
  batchSizes: number[];
}

export const redeliveryArbitrary = (eventCount: number): fc.Arbitrary<Redelivery> =>
  fc.record({
    copies: fc.array(fc.integer({ min: 1, max: 3 }), { minLength: eventCount, maxLength: eventCount }),
    picks: fc.array(fc.nat({ max: 1_000 }), { minLength: 1, maxLength: 3 * eventCount }),
    batchSizes: fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 1, maxLength: 8 }),
  });

/**
 * Each event repeated 1-3 times, streams interleaved at random, every stream's own deliveries in
 * revision order (the bus keeps order per key and nothing else).
 */
export function interleave(events: readonly EventEnvelope[], plan: Redelivery): EventEnvelope[] {
  const queues = new Map<string, EventEnvelope[]>();
  events.forEach((event, i) => {
    const queue = queues.get(event.metadata.streamId) ?? [];
    for (let copy = 0; copy < plan.copies[i]; copy += 1) queue.push(event);
    queues.set(event.metadata.streamId, queue);
  });
  const deliveries: EventEnvelope[] = [];
  for (let k = 0; ; k += 1) {
    const open = [...queues.values()].filter((q) => q.length > 0);
    if (open.length === 0) return deliveries;
    const queue = open[plan.picks[k % plan.picks.length] % open.length];
    deliveries.push(queue.shift() as EventEnvelope);
  }
}

export function batches<T>(items: readonly T[], sizes: readonly number[]): T[][] {
  const out: T[][] = [];
  for (let i = 0, k = 0; i < items.length; k += 1) {
    const size = sizes[k % sizes.length];
    out.push(items.slice(i, i + size));
    i += size;
  }
  return out;
}
