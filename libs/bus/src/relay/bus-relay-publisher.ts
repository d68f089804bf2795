import type { EventBus } from '../event-bus.port';
import type { RelayBatch, RelayPublisher } from './relay-publisher.port';

/**
 * The relay's default output: `bus.publish` per topic. Neither atomic nor fenced, so it is only
 * right for a single relay instance (or where duplicates from a stale one are acceptable).
 */
export class BusRelayPublisher implements RelayPublisher {
  constructor(private readonly bus: EventBus) {}

  async activate(): Promise<void> {
    // Nothing to fence: a plain bus has no notion of writer epochs.
  }

  async publish(batches: readonly RelayBatch[]): Promise<void> {
    // Topics are independent; within one the array keeps each stream's order.
    await Promise.all(batches.map((b) => this.bus.publish(b.topic, b.messages)));
  }

  async close(): Promise<void> {
    // The bus belongs to the caller.
  }
}
