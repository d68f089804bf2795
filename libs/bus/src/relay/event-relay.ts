import { streamCategories, type EventEnvelope } from '@lomo/contracts';
import type { EventStore, Position } from '@lomo/eventstore';
import { backoffDelay, type BackoffOptions } from '@lomo/resilience';
import { RelayStoppedError } from '../errors';
import type { EventBus, OutgoingMessage } from '../event-bus.port';
import { noopBusLogger, type BusLogger } from '../logger';
import { DEFAULT_RELAY_TOPIC_PREFIX, relayTopicFor, toRelayedMessage } from './relayed-message';

export interface EventRelayOptions {
  store: EventStore;
  bus: EventBus;
  /** Subscriber id of the relay's checkpoint in the store. */
  relayId?: string;
  /** Topics are `<prefix><category>`. */
  topicPrefix?: string;
  /** Partitions of the topics the relay creates. Fixed for a topic's life: keys map by it. */
  partitions?: number;
  /** Events read and published per round. */
  batchSize?: number;
  /** Wait between reads once caught up. */
  idleIntervalMs?: number;
  /** Wait after a failed round (store or bus unavailable); grows with repeated failures. */
  backoff?: BackoffOptions;
  logger?: BusLogger;
}

export interface RelayStats {
  batches: number;
  events: number;
  failures: number;
}

/**
 * Copies the event store to the bus, one topic per stream category, keyed by stream id.
 * At least once: a batch is published first and the checkpoint saved after, so a crash in
 * between republishes the batch (consumers dedupe by event id) and never skips an event.
 * Run one active relay per store (a second one only adds duplicates).
 */
export class EventRelay {
  private readonly relayId: string;
  private readonly topicPrefix: string;
  private readonly partitions: number;
  private readonly batchSize: number;
  private readonly idleIntervalMs: number;
  private readonly backoff: BackoffOptions;
  private readonly logger: BusLogger;
  private readonly ensuredTopics = new Set<string>();
  private readonly stopSignal = new AbortController();
  private readonly drainWaiters: Array<{ afterRound: number; resolve: () => void; reject: (error: Error) => void }> =
    [];
  private wake: (() => void) | undefined;
  private loop: Promise<void> | undefined;
  private round = 0;
  private consecutiveFailures = 0;
  private readonly counters: RelayStats = { batches: 0, events: 0, failures: 0 };

  constructor(private readonly options: EventRelayOptions) {
    this.relayId = options.relayId ?? 'bus-relay';
    this.topicPrefix = options.topicPrefix ?? DEFAULT_RELAY_TOPIC_PREFIX;
    this.partitions = options.partitions ?? 8;
    this.batchSize = options.batchSize ?? 256;
    this.idleIntervalMs = options.idleIntervalMs ?? 100;
    this.backoff = options.backoff ?? { initialDelayMs: 100, maxDelayMs: 5_000 };
    this.logger = options.logger ?? noopBusLogger;
  }

  get stats(): RelayStats {
    return { ...this.counters };
  }

  start(): void {
    if (this.loop) return;
    this.logger.info(
      { relayId: this.relayId, batchSize: this.batchSize, topicPrefix: this.topicPrefix },
      'event relay starting',
    );
    this.loop = this.run();
  }

  /**
   * Creates the topics of these categories now, so consumers can subscribe before the first
   * event of a category exists (the relay otherwise creates a topic on its first event).
   */
  async ensureTopics(categories: readonly string[] = streamCategories): Promise<void> {
    const names = categories.map((c) => `${this.topicPrefix}${c}`);
    await this.options.bus.ensureTopics(names.map((name) => ({ name, partitions: this.partitions })));
    for (const name of names) this.ensuredTopics.add(name);
  }

  /** Finishes the batch in flight (published and checkpointed), then stops. */
  async stop(): Promise<void> {
    this.stopSignal.abort();
    this.wake?.();
    await this.loop;
    for (const waiter of this.drainWaiters.splice(0)) waiter.reject(new RelayStoppedError(this.relayId));
    this.logger.info({ relayId: this.relayId, ...this.counters }, 'event relay stopped');
  }

  /** Resolves once everything in the store when called is published and checkpointed. */
  drain(): Promise<void> {
    if (this.stopSignal.signal.aborted) return Promise.reject(new RelayStoppedError(this.relayId));
    return new Promise((resolve, reject) => {
      // A round that starts after this call and finds nothing new proves the relay caught up.
      this.drainWaiters.push({ afterRound: this.round, resolve, reject });
      this.wake?.();
    });
  }

  private async run(): Promise<void> {
    let position: Position | undefined;
    let positionLoaded = false;
    while (!this.stopSignal.signal.aborted) {
      this.round += 1;
      const round = this.round;
      try {
        if (!positionLoaded) {
          position = await this.options.store.getCheckpoint(this.relayId);
          positionLoaded = true;
        }
        const events = await this.options.store.readAll({
          fromPosition: position ?? 'start',
          maxCount: this.batchSize,
        });
        if (events.length === 0) {
          this.settleDrains(round);
          await this.pause(this.idleIntervalMs);
          continue;
        }
        await this.publish(events);
        const last = events[events.length - 1].metadata.globalPosition;
        await this.options.store.saveCheckpoint(this.relayId, last);
        position = last;
        this.consecutiveFailures = 0;
        this.counters.batches += 1;
        this.counters.events += events.length;
      } catch (error) {
        // Nothing is skipped: the next round re-reads from the saved checkpoint.
        positionLoaded = false;
        this.consecutiveFailures += 1;
        this.counters.failures += 1;
        const delayMs = backoffDelay(this.consecutiveFailures, this.backoff);
        this.logger.warn(
          { err: error, relayId: this.relayId, failures: this.consecutiveFailures, delayMs },
          'event relay round failed, retrying',
        );
        await this.pause(delayMs);
      }
    }
  }

  private async publish(events: readonly EventEnvelope[]): Promise<void> {
    const byTopic = new Map<string, OutgoingMessage[]>();
    for (const event of events) {
      const topic = relayTopicFor(event.metadata.streamId, this.topicPrefix);
      let batch = byTopic.get(topic);
      if (!batch) byTopic.set(topic, (batch = []));
      batch.push(toRelayedMessage(event));
    }
    const missing = [...byTopic.keys()].filter((t) => !this.ensuredTopics.has(t));
    if (missing.length > 0) {
      await this.options.bus.ensureTopics(missing.map((name) => ({ name, partitions: this.partitions })));
      for (const t of missing) this.ensuredTopics.add(t);
    }
    // Topics are independent; within one the array keeps each stream's order.
    await Promise.all([...byTopic].map(([topic, messages]) => this.options.bus.publish(topic, messages)));
  }

  private settleDrains(round: number): void {
    for (let i = this.drainWaiters.length - 1; i >= 0; i -= 1) {
      if (this.drainWaiters[i].afterRound < round) this.drainWaiters.splice(i, 1)[0].resolve();
    }
  }

  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const signal = this.stopSignal.signal;
      if (signal.aborted) return resolve();
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        this.wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal.addEventListener('abort', done, { once: true });
      this.wake = done;
    });
  }
}
