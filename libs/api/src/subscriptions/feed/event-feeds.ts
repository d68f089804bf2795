import { Inject, Injectable } from '@nestjs/common';
import { ValidationError } from '@lomo/contracts';
import { EVENT_STORE, type EventStore, type Position } from '@lomo/eventstore';
import { LOGGER, type Logger } from '@lomo/observability';
import type { Caller } from '@lomo/auth';
import { validationFailed } from '@lomo/contracts';
import { mapEvent } from '../../graphql/mappers/map-event';
import type { FeedEvent } from '../graphql/live.types';
import { LiveOutbox } from '../live/live-outbox';
import { SUBSCRIPTION_SETTINGS, type SubscriptionSettings } from '../subscription-settings';
import { decodeFeedCursor, encodeFeedCursor } from './feed-cursor';
import { storeFilter, type FeedFilter } from './feed-filter';
import { StoreTail } from './store-tail';

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

  async open(
    caller: Caller,
    filter: FeedFilter,
    after: string | undefined,
    onSlowConsumer: (error: Error) => void,
  ): Promise<LiveOutbox<FeedEvent>> {
    const start: Position | 'start' = after === undefined ? 'start' : decodeFeedCursor(after);
    // A cursor that decodes but that the store cannot place is refused now, not mid-stream.
    await this.readPage(start, filter, caller, 1);
    const outbox = new LiveOutbox<FeedEvent>(this.settings.outboxCapacity, onSlowConsumer);
    void this.pump(outbox, caller, filter, start).catch((error: unknown) => {
      this.logger.error(
        { workspaceId: caller.workspaceId, error: error instanceof Error ? error.message : String(error) },
        'event feed failed',
      );
      outbox.fail(error);
    });
    return outbox;
  }

  private async pump(
    outbox: LiveOutbox<FeedEvent>,
    caller: Caller,
    filter: FeedFilter,
    start: Position | 'start',
  ): Promise<void> {
    const { feedPageSize, feedIdlePollMs, slowConsumerTimeoutMs } = this.settings;
    let position = start;
    while (!outbox.signal.aborted) {
      const mark = this.tail.mark();
      const page = await this.readPage(position, filter, caller, feedPageSize);
      for (const event of page) {
        // Passed over or not, the next read starts after it; the cursor goes only on delivered events.
        position = event.metadata.globalPosition;
        if (event.metadata.workspaceId !== caller.workspaceId) continue;
        if (!(await outbox.waitForRoom(slowConsumerTimeoutMs))) return;
        outbox.push({ cursor: encodeFeedCursor(position), event: mapEvent(event) });
      }
      if (page.length < feedPageSize) await this.tail.waitForAppend(mark, feedIdlePollMs, outbox.signal);
      // A long catch-up over other workspaces' events must not hold the event loop.
      else await new Promise((resolve) => setImmediate(resolve));
    }
  }

  private async readPage(position: Position | 'start', filter: FeedFilter, caller: Caller, maxCount: number) {
    try {
      return await this.store.readAll({
        fromPosition: position,
        filter: storeFilter(filter, caller.workspaceId),
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
