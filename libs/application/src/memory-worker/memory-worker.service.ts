import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import {
  EVENT_BUS,
  RelayHeaders,
  relayedEventOf,
  relayTopicFor,
  type ConsumerHandle,
  type EventBus,
  type ReceivedMessage,
} from '@lomo/bus';
import { LOMO_CONFIG, type LomoConfig } from '@lomo/config';
import { streams, type EventEnvelope } from '@lomo/contracts';
import { foldMemory, memoryDecider, type MemoryEvent, type MemoryState } from '@lomo/domain';
import { EVENT_STORE, type EventStore } from '@lomo/eventstore';
import type { MemoryIndexer, MemoryRunner } from '@lomo/memory';
import { LOGGER, type Logger } from '@lomo/observability';
import { withMessageTraceContext } from '@lomo/platform';
import { MEMORY_INDEXER, MEMORY_RUNNER } from './memory-worker.tokens';
import { isRetriableRoutingError } from '../router/router.service';

export const MEMORY_GROUP = 'memory';
const TOPICS = [
  relayTopicFor(streams.task('x')),
  relayTopicFor(streams.turn('x')),
  relayTopicFor(streams.memory('w', 'u')),
];

/**
 * A refusal fails the same way every time; anything else (an outage, a model error) is tried
 * again: the router's rule, since memory's work is idempotent in the same way.
 */
export const isRetriableMemoryError = isRetriableRoutingError;

/**
 * Memory's own consumer (article §7.4): delivered messages and generation calls become evidence and
 * are extracted, a confirmed forgetting runs its cascade. Retries with backoff, then a dead letter
 * an operator redrives (`redrive`); nothing here is on a turn's path, so a slow or failing
 * extraction never blocks one.
 */
@Injectable()
export class MemoryWorkerService implements OnApplicationBootstrap, OnModuleDestroy {
  private consumer: ConsumerHandle | undefined;

  constructor(
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(LOMO_CONFIG) private readonly config: LomoConfig,
    @Inject(MEMORY_RUNNER) private readonly runner: MemoryRunner,
    @Inject(MEMORY_INDEXER) private readonly indexer: MemoryIndexer,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.reindex();
    await this.bus.ensureTopics(TOPICS.map((name) => ({ name, partitions: this.config.LOMO_BUS_PARTITIONS })));
    this.consumer = await this.bus.subscribe({
      groupId: MEMORY_GROUP,
      topics: TOPICS,
      fromBeginning: true,
      maxAttempts: this.config.LOMO_BUS_MAX_ATTEMPTS,
      backoff: { initialDelayMs: 200, maxDelayMs: 10_000 },
      isRetriable: isRetriableMemoryError,
      handler: withMessageTraceContext((message) => this.handle(message)),
    });
    this.logger.info({ component: 'memory', groupId: MEMORY_GROUP, topics: TOPICS }, 'memory worker subscribed');
  }

  async onModuleDestroy(): Promise<void> {
    await this.consumer?.stop();
    this.consumer = undefined;
  }

  async handle(message: ReceivedMessage): Promise<void> {
    const type = message.headers[RelayHeaders.type];
    if (type !== 'MessageDeliveredToInbox' && type !== 'ModelStepCommitted' && type !== 'ForgettingConfirmed') return;
    await this.handleEvent(relayedEventOf(message));
  }

  async handleEvent(event: EventEnvelope): Promise<void> {
    if (event.type === 'MessageDeliveredToInbox') return this.runner.messageDelivered(event);
    if (event.type === 'ModelStepCommitted') return this.runner.stepCommitted(event);
    if (event.type === 'ForgettingConfirmed') {
      const [workspaceId, userId] = event.metadata.streamId.slice('memory-'.length).split('.');
      await this.runner.forgettingConfirmed(workspaceId, userId, (event.data as { forgettingId: string }).forgettingId);
    }
  }

  /** The group's dead letters, oldest first. */
  deadLetters() {
    return this.bus.readDeadLetters(MEMORY_GROUP);
  }

  /**
   * Runs the group's dead letters again, oldest first (each piece of work is idempotent); returns
   * how many went through and which failed again (they stay dead-lettered for another look).
   */
  async redrive(): Promise<{ redriven: number; failed: { offset: number; error: string }[] }> {
    const letters = await this.bus.readDeadLetters(MEMORY_GROUP);
    let redriven = 0;
    const failed: { offset: number; error: string }[] = [];
    for (const letter of letters) {
      try {
        await this.handle(letter.message);
        redriven += 1;
      } catch (error) {
        failed.push({ offset: letter.message.offset, error: error instanceof Error ? error.message : String(error) });
      }
    }
    this.logger.info({ component: 'memory', redriven, failed: failed.length }, 'memory dead letters redriven');
    return { redriven, failed };
  }

  /** The recall index lives in this process: rebuilt from every memory stream when it starts. */
  private async reindex(): Promise<void> {
    const byStream = new Map<string, MemoryEvent[]>();
    const events = await this.store.readAll({ filter: { streamPrefixes: ['memory-'] } });
    for (const e of events) {
      const list = byStream.get(e.metadata.streamId) ?? [];
      list.push({ type: e.type, data: e.data } as MemoryEvent);
      byStream.set(e.metadata.streamId, list);
    }
    // One batch fold per person: linear in their events (evolving one by one copies the person's
    // records per event, minutes for a person with 10 000 memories).
    const states = new Map<string, MemoryState>(
      [...byStream].map(([stream, list]) => [stream, foldMemory(memoryDecider.initialState(), list)]),
    );
    for (const [stream, state] of states) {
      const [workspaceId, userId] = stream.slice('memory-'.length).split('.');
      await this.indexer.syncPerson({ workspaceId, userId }, state);
    }
    if (states.size > 0) this.logger.info({ component: 'memory', people: states.size }, 'memory recall index rebuilt');
  }
}
