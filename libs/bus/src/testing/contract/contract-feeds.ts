import { randomUUID } from 'node:crypto';
import type { EventBus, ReceivedMessage } from '../../event-bus.port';
import { EventRelay } from '../../relay/event-relay';
import { relayedEventOf } from '../../relay/relayed-message';
import { InMemoryEventStore } from '../in-memory-event-store';
import type { ContractContext } from './event-bus-harness';

/** A logical message of the scenarios: a key and its sequence number within the key. */
export interface ContractItem {
  key: string;
  seq: number;
}

export type FeedKind = 'direct publish' | 'relayed events';

/**
 * How messages reach the bus in a scenario. The delivery scenarios run once per feed, so direct
 * publishes and relayed events are held to the same guarantees.
 */
export interface ContractFeed {
  readonly kind: FeedKind;
  readonly topic: string;
  /** Creates the topic on `bus` and (relay) starts relaying into it. */
  attach(bus: EventBus): Promise<void>;
  /** Resolves once the bus accepted every item. */
  send(items: readonly ContractItem[]): Promise<void>;
  /** Stops relaying (direct: nothing to do). */
  detach(): Promise<void>;
  decode(message: ReceivedMessage): ContractItem;
  /** The bus key a logical key travels under. */
  transportKey(key: string): string;
}

export function createFeed(kind: FeedKind, ctx: ContractContext): ContractFeed {
  return kind === 'direct publish' ? new DirectFeed(ctx) : new RelayFeed(ctx);
}

class DirectFeed implements ContractFeed {
  readonly kind = 'direct publish';
  readonly topic: string;
  private bus: EventBus | undefined;

  constructor(private readonly ctx: ContractContext) {
    this.topic = ctx.harness.uniqueName('contract-direct');
  }

  async attach(bus: EventBus): Promise<void> {
    this.bus = bus;
    await bus.ensureTopics([{ name: this.topic, partitions: this.ctx.timing.partitions }]);
  }

  async send(items: readonly ContractItem[]): Promise<void> {
    if (!this.bus) throw new Error('feed not attached');
    await this.bus.publish(
      this.topic,
      items.map((item) => ({
        key: item.key,
        value: { key: item.key, seq: item.seq },
        headers: { seq: String(item.seq) },
      })),
    );
  }

  async detach(): Promise<void> {
    this.bus = undefined;
  }

  decode(message: ReceivedMessage): ContractItem {
    return { key: String(message.value.key), seq: Number(message.value.seq) };
  }

  transportKey(key: string): string {
    return key;
  }
}

/** Items become events of `task-<key>` streams in an event store; a relay carries them over. */
class RelayFeed implements ContractFeed {
  readonly kind = 'relayed events';
  readonly topic: string;
  private readonly prefix: string;
  // The store outlives bus restarts, as the real one does; so does the relay's checkpoint in it.
  private readonly store = new InMemoryEventStore();
  private relay: EventRelay | undefined;

  constructor(private readonly ctx: ContractContext) {
    this.prefix = `${ctx.harness.uniqueName('contract-relay')}.`;
    this.topic = `${this.prefix}task`;
  }

  async attach(bus: EventBus): Promise<void> {
    // A small batch, so the scenarios cross batch boundaries.
    this.relay = new EventRelay({
      store: this.store,
      bus,
      relayId: 'contract-relay',
      topicPrefix: this.prefix,
      partitions: this.ctx.timing.partitions,
      batchSize: 7,
      idleIntervalMs: 10,
      backoff: { initialDelayMs: 10, maxDelayMs: 100 },
    });
    await this.relay.ensureTopics(['task']);
    this.relay.start();
  }

  async send(items: readonly ContractItem[]): Promise<void> {
    if (!this.relay) throw new Error('feed not attached');
    for (const item of items) {
      await this.store.append(
        this.transportKey(item.key),
        [
          {
            eventId: randomUUID(),
            type: 'ContractProbeRecorded',
            data: { key: item.key, seq: item.seq },
            metadata: {
              correlationId: `corr-${item.key}`,
              causationId: null,
              workspaceId: 'ws_contract',
              actor: { kind: 'system', component: 'contract' },
            },
          },
        ],
        'any',
      );
    }
    await this.relay.drain();
  }

  async detach(): Promise<void> {
    await this.relay?.stop();
    this.relay = undefined;
  }

  decode(message: ReceivedMessage): ContractItem {
    const data = relayedEventOf(message).data as ContractItem;
    return { key: data.key, seq: data.seq };
  }

  transportKey(key: string): string {
    return `task-${key}`;
  }
}
