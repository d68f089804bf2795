import {
  InvalidMessageError,
  relayedEventOf,
  DEFAULT_RELAY_TOPIC_PREFIX,
  type ConsumerHandle,
  type EventBus,
} from '@lomo/bus';
import { type StreamCategory } from '@lomo/contracts';
import type { EventStore, Subscription } from '@lomo/eventstore';
import type { Logger } from '@lomo/observability';
import { withMessageTraceContext } from '@lomo/platform';
import type { AnyProjection, ProjectionRunner } from '@lomo/read-models';

export const PROJECTOR_GROUP = 'projector';
export const PROJECTOR_SUBSCRIBER = 'projector';

/** What delivers events to the runner; the store sweep repairs whatever one misses. */
export interface ProjectionFeed {
  start(): Promise<void>;
  stop(): Promise<void>;
}

const categoriesOf = (projections: readonly AnyProjection[]): StreamCategory[] => [
  ...new Set(projections.flatMap((p) => p.categories)),
];

/** A relayed message that is not an event fails the same way every time: dead-letter it at once. */
export const isRetriableProjectionError = (error: unknown): boolean => !(error instanceof InvalidMessageError);

export interface BusFeedOptions {
  bus: EventBus;
  runner: ProjectionRunner;
  projections: readonly AnyProjection[];
  partitions: number;
  maxAttempts: number;
  logger: Logger;
}

/** Consumer group `projector` on `lomo.events.<category>` for every category a projection reads. */
export class BusProjectionFeed implements ProjectionFeed {
  private consumer: ConsumerHandle | undefined;

  constructor(private readonly options: BusFeedOptions) {}

  async start(): Promise<void> {
    const { bus, runner, partitions } = this.options;
    const topics = categoriesOf(this.options.projections).map((c) => `${DEFAULT_RELAY_TOPIC_PREFIX}${c}`);
    // The relay creates these too (same partition count, so idempotent): whichever starts first.
    await bus.ensureTopics(topics.map((name) => ({ name, partitions })));
    this.consumer = await bus.subscribe({
      groupId: PROJECTOR_GROUP,
      topics,
      fromBeginning: true,
      maxAttempts: this.options.maxAttempts,
      backoff: { initialDelayMs: 100, maxDelayMs: 5_000 },
      isRetriable: isRetriableProjectionError,
      handler: withMessageTraceContext((message) => runner.apply([relayedEventOf(message)])),
    });
    this.options.logger.info(
      { component: 'projector', groupId: PROJECTOR_GROUP, topics },
      'projector subscribed to the bus',
    );
  }

  async stop(): Promise<void> {
    await this.consumer?.stop();
    this.consumer = undefined;
  }
}

export interface StoreFeedOptions {
  events: EventStore;
  runner: ProjectionRunner;
  projections: readonly AnyProjection[];
  logger: Logger;
}

/**
 * Tails the event store directly (durable subscriber `projector`): no bus in between, so the
 * lowest latency when the projector shares the store with the writers.
 */
export class StoreProjectionFeed implements ProjectionFeed {
  private subscription: Subscription | undefined;

  constructor(private readonly options: StoreFeedOptions) {}

  async start(): Promise<void> {
    const { events, runner } = this.options;
    // The runner's start-up sweep already caught up: a first subscription starts at the head.
    const resumeFrom = (await events.getCheckpoint(PROJECTOR_SUBSCRIBER)) === undefined ? 'end' : undefined;
    const options = {
      subscriberId: PROJECTOR_SUBSCRIBER,
      fromPosition: resumeFrom,
      filter: { streamPrefixes: categoriesOf(this.options.projections).map((c) => `${c}-`) },
    };
    // A page at once where the store reads in pages: a fan-out's 100 notices are one batch of the
    // engine (one read-model write per document) instead of 100.
    this.subscription =
      events.subscribeToAllInBatches !== undefined
        ? events.subscribeToAllInBatches(options, (page) => runner.apply(page))
        : events.subscribeToAll(options, (event) => runner.apply([event]));
    this.subscription.done.catch((error: unknown) =>
      this.options.logger.error(
        { component: 'projector', error: error instanceof Error ? error.message : String(error) },
        'store feed ended; the sweep keeps the read models current',
      ),
    );
  }

  async stop(): Promise<void> {
    await this.subscription?.stop();
    this.subscription = undefined;
  }
}
