import { streamCategories, type EventEnvelope } from '@lomo/contracts';
import type { EventStore, Position } from '@lomo/eventstore';
import { backoffDelay, type BackoffOptions } from '@lomo/resilience';
import { RelayStoppedError } from '../errors';
import type { EventBus } from '../event-bus.port';
import { noopBusLogger, type BusLogger } from '../logger';
import { BusRelayPublisher } from './bus-relay-publisher';
import { batchesByTopic } from './relay-batches';
import { RelayFencedError } from './relay-errors';
import type { RelayLeaseOptions } from './relay-lease-keeper';
import type { RelayPublisher } from './relay-publisher.port';
import { RelayTerms } from './relay-terms';
import { DEFAULT_RELAY_TOPIC_PREFIX } from './relayed-message';

export interface EventRelayOptions {
  store: EventStore;
  /** Creates the topics; also publishes, unless `publisher` is given. */
  bus: EventBus;
  /** Subscriber id of the relay's checkpoint in the store, and the name of its lease. */
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
  /**
   * Where rounds go. Default: `bus.publish` per topic, neither atomic nor fenced. With a lease,
   * pass a fencing one (KafkaTransactionalPublisher, SqliteFencedBusPublisher).
   */
  publisher?: RelayPublisher;
  /** Run as one of several instances: publish only while holding this lease, else stand by. */
  lease?: RelayLeaseOptions;
  /** Told on every change: standby, active (with its epoch), fenced, stopped. */
  onStateChange?: (state: RelayState, epoch: number | undefined) => void;
}

export type RelayState = 'idle' | 'standby' | 'active' | 'fenced' | 'stopped';

export interface RelayStats {
  batches: number;
  events: number;
  failures: number;
}

/**
 * Copies the event store to the bus, one topic per stream category, keyed by stream id.
 * At least once: a round is published first and the checkpoint saved after, so a crash in
 * between republishes that round (consumers dedupe by event id) and never skips an event.
 *
 * With a lease, several instances run and one is active. Becoming active activates the publisher
 * (which fences every older writer) and resumes from the stored checkpoint. An instance that
 * finds itself fenced while another holds the lease stops for good: whatever it still had in
 * flight is refused, so per-key order and "each round at most re-published once" hold across
 * a handover.
 */
export class EventRelay {
  private readonly relayId: string;
  private readonly topicPrefix: string;
  private readonly partitions: number;
  private readonly batchSize: number;
  private readonly idleIntervalMs: number;
  private readonly backoff: BackoffOptions;
  private readonly logger: BusLogger;
  private readonly publisher: RelayPublisher;
  private readonly terms: RelayTerms;
  private readonly ensuredTopics = new Set<string>();
  private readonly stopSignal = new AbortController();
  private readonly drainWaiters: Array<{ afterRound: number; resolve: () => void; reject: (error: Error) => void }> =
    [];
  private wake: (() => void) | undefined;
  private loop: Promise<void> | undefined;
  private round = 0;
  private consecutiveFailures = 0;
  private readonly counters: RelayStats = { batches: 0, events: 0, failures: 0 };
  private currentState: RelayState = 'idle';
  private stateEpoch: number | undefined;
  private fencedBy: RelayFencedError | undefined;

  constructor(private readonly options: EventRelayOptions) {
    this.relayId = options.relayId ?? 'bus-relay';
    this.topicPrefix = options.topicPrefix ?? DEFAULT_RELAY_TOPIC_PREFIX;
    this.partitions = options.partitions ?? 8;
    this.batchSize = options.batchSize ?? 256;
    this.idleIntervalMs = options.idleIntervalMs ?? 100;
    this.backoff = options.backoff ?? { initialDelayMs: 100, maxDelayMs: 5_000 };
    this.logger = options.logger ?? noopBusLogger;
    this.publisher = options.publisher ?? new BusRelayPublisher(options.bus);
    // An idle relay learns of a lost lease at once rather than with the next event.
    this.terms = new RelayTerms(this.relayId, this.publisher, options.lease, this.logger, () => this.wake?.());
  }

  get stats(): RelayStats {
    return { ...this.counters };
  }

  get state(): RelayState {
    return this.currentState;
  }

  /** The lease epoch of the current term, while active. */
  get epoch(): number | undefined {
    return this.terms.current;
  }

  start(): void {
    if (this.loop) return;
    this.logger.info(
      { relayId: this.relayId, batchSize: this.batchSize, topicPrefix: this.topicPrefix, leased: this.terms.leased },
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

  /** Finishes the round in flight (published and checkpointed), gives the lease up, then stops. */
  async stop(): Promise<void> {
    this.stopSignal.abort();
    this.wake?.();
    await this.loop;
    if (!this.fencedBy) await this.terms.release();
    for (const waiter of this.drainWaiters.splice(0)) waiter.reject(new RelayStoppedError(this.relayId));
    this.setState('stopped');
    this.logger.info({ relayId: this.relayId, ...this.counters }, 'event relay stopped');
  }

  /**
   * Resolves once everything in the store when called is published and checkpointed. A standby
   * resolves only after it became active and caught up.
   */
  drain(): Promise<void> {
    if (this.fencedBy) return Promise.reject(this.fencedBy);
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
      if (this.terms.current === undefined) {
        if (!(await this.becomeActive())) return;
        // A new term starts where the last saved checkpoint says, whoever saved it.
        positionLoaded = false;
      }
      this.round += 1;
      const round = this.round;
      try {
        this.terms.assertHeld();
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
        await this.publishRound(events);
        const last = events[events.length - 1].metadata.globalPosition;
        await this.options.store.saveCheckpoint(this.relayId, last);
        position = last;
        this.consecutiveFailures = 0;
        this.counters.batches += 1;
        this.counters.events += events.length;
      } catch (error) {
        // Nothing is skipped: the next round re-reads from the saved checkpoint.
        positionLoaded = false;
        if (await this.terms.isFencedForGood(error)) return this.fence(error);
        // The next round re-activates: a fencing publisher replaces a producer a failure may have
        // left unusable, and the lease is re-confirmed before anything is published.
        this.terms.end();
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

  /** Waits for the lease (if any) and activates the publisher. false once stopped. */
  private async becomeActive(): Promise<boolean> {
    while (!this.stopSignal.signal.aborted) {
      if (this.terms.leased && this.currentState !== 'standby') this.setState('standby');
      const epoch = await this.terms.acquire(this.stopSignal.signal);
      if (epoch === undefined) return false;
      try {
        if (await this.terms.begin(epoch)) {
          this.setState('active', epoch);
          return true;
        }
        this.logger.warn({ relayId: this.relayId, epoch }, 'relay lease moved during activation, standing by');
      } catch (error) {
        this.consecutiveFailures += 1;
        this.counters.failures += 1;
        const delayMs = backoffDelay(this.consecutiveFailures, this.backoff);
        this.logger.warn({ err: error, relayId: this.relayId, epoch, delayMs }, 'event relay activation failed');
        await this.pause(delayMs);
      }
    }
    return false;
  }

  private async publishRound(events: readonly EventEnvelope[]): Promise<void> {
    const epoch = this.terms.assertHeld();
    const batches = batchesByTopic(events, this.topicPrefix, this.terms.leased ? epoch : undefined);
    const missing = batches.map((b) => b.topic).filter((t) => !this.ensuredTopics.has(t));
    if (missing.length > 0) {
      await this.options.bus.ensureTopics(missing.map((name) => ({ name, partitions: this.partitions })));
      for (const t of missing) this.ensuredTopics.add(t);
    }
    await this.publisher.publish(batches, epoch, this.terms.signal);
    await this.terms.confirm(epoch);
  }

  private fence(error: unknown): void {
    const epoch = this.terms.lastEpoch;
    this.fencedBy =
      error instanceof RelayFencedError
        ? error
        : new RelayFencedError(this.relayId, epoch, error instanceof Error ? error.message : String(error));
    this.terms.fence();
    this.logger.error(
      { err: error, relayId: this.relayId, epoch, holder: this.terms.holder },
      'event relay fenced: a newer instance took over, this one publishes nothing more',
    );
    for (const waiter of this.drainWaiters.splice(0)) waiter.reject(this.fencedBy);
    this.setState('fenced', epoch);
  }

  private setState(state: RelayState, epoch?: number): void {
    // An unleased relay re-activates after every failed round; that is no change worth telling.
    if (state === this.currentState && epoch === this.stateEpoch) return;
    this.currentState = state;
    this.stateEpoch = epoch;
    this.options.onStateChange?.(state, epoch);
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
