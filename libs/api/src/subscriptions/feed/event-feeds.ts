import { Inject, Injectable } from '@nestjs/common';
import { ValidationError, validationFailed, type EventEnvelope } from '@lomo/contracts';
import { EVENT_STORE, type EventStore, type Position } from '@lomo/eventstore';
import { LOGGER, type Logger } from '@lomo/observability';
import { canSeeEvent, logOperatorRead, type Caller } from '@lomo/auth';
import { mapEvent } from '../../graphql/mappers/map-event';
import type { FeedEvent } from '../graphql/live.types';
import { LiveOutbox } from '../live/live-outbox';
import { SUBSCRIPTION_SETTINGS, type SubscriptionSettings } from '../subscription-settings';
import { decodeFeedCursor, encodeFeedCursor } from './feed-cursor';
import { storeFilter, type FeedFilter } from './feed-filter';
import { StoreTail } from './store-tail';

const inCategories = (filter: FeedFilter, streamId: string): boolean =>
  filter.categories.length === 0 || filter.categories.some((c) => streamId.startsWith(`${c}-`));

interface Feed {
  caller: Caller;
  workspaceId: string;
  filter: FeedFilter;
}

/** What a feed hands its client for an event and its cursor; undefined passes over the event. */
export type FeedPayload<T> = (event: EventEnvelope, cursor: string) => T | undefined;

const asFeedEvent: FeedPayload<FeedEvent> = (event, cursor) => ({ cursor, event: mapEvent(event) });

/**
 * `eventFeed(filter, after)`: the caller's workspace's events in global order from a cursor,
 * then live. One loop does both: read a page after the last position, hand over the events of
 * the caller's workspace, and when a page comes back short (caught up), wait for an append. The
 * feed reads on only when its client has taken what it had (`waitForRoom`), so memory stays at
 * one outbox per feed however far behind the client is.
 */
@Injectable()
export class EventFeeds {
  private readonly logger: Logger;

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(StoreTail) private readonly tail: StoreTail,
    @Inject(SUBSCRIPTION_SETTINGS) private readonly settings: SubscriptionSettings,
    @Inject(LOGGER) logger: Logger,
  ) {
    this.logger = logger.child({ component: 'event-feed' });
  }

  open(
    caller: Caller,
    filter: FeedFilter,
    after: string | undefined,
    onSlowConsumer: (error: Error) => void,
    /** The workspace read: the caller's own unless an operator named another (checked by the resolver). */
    workspaceId: string = caller.workspaceId,
  ): Promise<LiveOutbox<FeedEvent>> {
    return this.openWith(caller, filter, after, onSlowConsumer, asFeedEvent, workspaceId);
  }

  /** The same feed, each event handed over as `payload` makes it (notifications built on events). */
  async openWith<T>(
    caller: Caller,
    filter: FeedFilter,
    after: string | undefined,
    onSlowConsumer: (error: Error) => void,
    payload: FeedPayload<T>,
    workspaceId: string = caller.workspaceId,
  ): Promise<LiveOutbox<T>> {
    const start: Position | 'start' = after === undefined ? 'start' : decodeFeedCursor(after);
    const feed: Feed = { caller, workspaceId, filter };
    // A cursor that decodes but that the store cannot place is refused now, not mid-stream.
    await this.readPage(start, feed, 1);
    logOperatorRead(this.logger, caller, { path: 'eventFeed', workspaceId });
    const outbox = new LiveOutbox<T>(this.settings.outboxCapacity, onSlowConsumer);
    void this.pump(outbox, feed, start, payload).catch((error: unknown) => {
      this.logger.error(
        { workspaceId, error: error instanceof Error ? error.message : String(error) },
        'event feed failed',
      );
      outbox.fail(error);
    });
    return outbox;
  }

  /** The store's head as a cursor: a feed that starts there carries only what is appended from now on. */
  async headCursor(): Promise<string | undefined> {
    const head = await this.store.headPosition();
    return head === undefined ? undefined : encodeFeedCursor(head);
  }

  private async pump<T>(
    outbox: LiveOutbox<T>,
    feed: Feed,
    start: Position | 'start',
    payload: FeedPayload<T>,
  ): Promise<void> {
    const { feedPageSize, feedIdlePollMs, slowConsumerTimeoutMs } = this.settings;
    let position = start;
    while (!outbox.signal.aborted) {
      const mark = this.tail.mark();
      const page = await this.readPage(position, feed, feedPageSize);
      for (const event of page) {
        // Passed over or not, the next read starts after it; the cursor goes only on delivered events.
        position = event.metadata.globalPosition;
        // One workspace per feed; inside it the policy decides (another person's main line and
        // memory never pass, catch-up and live alike: this loop is both).
        if (event.metadata.workspaceId !== feed.workspaceId || !canSeeEvent(feed.caller, event)) continue;
        // The store filter only narrows: when the policy leaves none of the asked categories
        // (an integration asking for MAIN) it reads unfiltered, so the categories are checked here.
        if (!inCategories(feed.filter, event.metadata.streamId)) continue;
        const item = payload(event, encodeFeedCursor(position));
        if (item === undefined) continue;
        if (!(await outbox.waitForRoom(slowConsumerTimeoutMs))) return;
        outbox.push(item);
      }
      if (page.length < feedPageSize) await this.tail.waitForAppend(mark, feedIdlePollMs, outbox.signal);
      // A long catch-up over other workspaces' events must not hold the event loop.
      else await new Promise((resolve) => setImmediate(resolve));
    }
  }

  private async readPage(position: Position | 'start', feed: Feed, maxCount: number) {
    try {
      return await this.store.readAll({
        fromPosition: position,
        filter: storeFilter(feed.filter, feed.caller, feed.workspaceId),
        maxCount,
      });
    } catch (error) {
      if (error instanceof ValidationError) {
        throw validationFailed([{ path: 'after', message: 'not a feed cursor this API issued' }]);
      }
      throw error;
    }
  }
}
