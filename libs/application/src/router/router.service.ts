import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
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
import { isLomoError, streams } from '@lomo/contracts';
import { DomainError } from '@lomo/domain';
import { LOGGER, type Logger } from '@lomo/observability';
import { withMessageTraceContext } from '@lomo/platform';
import { RouteUserMessage, type RouteUserMessageResult } from './route-user-message.command';
import { WakeUpPublisher } from './wake-up-publisher';

export const ROUTER_GROUP = 'router';
/** The relay's topic of main-stream events, `lomo.events.main`. */
export const MAIN_EVENTS_TOPIC = relayTopicFor(streams.main('w', 'u'));

/**
 * A refusal or malformed input fails the same way every time: dead-letter it at once. Anything
 * else (a store or bus outage, a conflict that outlasted its retries) is worth another delivery,
 * which is safe because routing is idempotent.
 */
export function isRetriableRoutingError(error: unknown): boolean {
  if (error instanceof DomainError) return false;
  if (isLomoError(error)) return error.retriable || error.code === 'CONCURRENCY_CONFLICT';
  return true;
}

/** Consumes main-stream events from the bus and routes each UserMessageReceived. */
@Injectable()
export class RouterService implements OnApplicationBootstrap, OnModuleDestroy {
  private consumer: ConsumerHandle | undefined;

  constructor(
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    @Inject(LOMO_CONFIG) private readonly config: LomoConfig,
    @Inject(CommandBus) private readonly commands: CommandBus,
    @Inject(WakeUpPublisher) private readonly wakeUps: WakeUpPublisher,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    // The relay creates its topics too; creating them here as well (same partition count, so
    // idempotent) lets the router subscribe whichever starts first.
    await this.bus.ensureTopics([{ name: MAIN_EVENTS_TOPIC, partitions: this.config.LOMO_BUS_PARTITIONS }]);
    await this.wakeUps.ensureTopic();
    this.consumer = await this.bus.subscribe({
      groupId: ROUTER_GROUP,
      topics: [MAIN_EVENTS_TOPIC],
      fromBeginning: true,
      maxAttempts: this.config.LOMO_BUS_MAX_ATTEMPTS,
      backoff: { initialDelayMs: 100, maxDelayMs: 5_000 },
      isRetriable: isRetriableRoutingError,
      handler: withMessageTraceContext((message) => this.handle(message).then(() => undefined)),
    });
    this.logger.info({ component: 'router', groupId: ROUTER_GROUP, topic: MAIN_EVENTS_TOPIC }, 'router subscribed');
  }

  async onModuleDestroy(): Promise<void> {
    await this.consumer?.stop();
    this.consumer = undefined;
  }

  /** Routes a relayed UserMessageReceived; other main-stream events are not the router's business. */
  async handle(message: ReceivedMessage): Promise<RouteUserMessageResult | undefined> {
    if (message.headers[RelayHeaders.type] !== 'UserMessageReceived') return undefined;
    return this.commands.execute<RouteUserMessage, RouteUserMessageResult>(
      new RouteUserMessage(relayedEventOf(message)),
    );
  }
}
