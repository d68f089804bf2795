import { randomUUID } from 'node:crypto';
import type { NewEvent } from '@lomo/contracts';
import { InMemoryEventStore } from '@lomo/bus/testing';
import { silentLogger } from '@lomo/observability';
import type { Caller } from '@lomo/auth';
import type { FeedEvent } from '../graphql/live.types';
import type { LiveOutbox } from '../live/live-outbox';
import { subscriptionSettings, type SubscriptionSettings } from '../subscription-settings';
import { EventFeeds } from './event-feeds';
import { feedFilter } from './feed-filter';
import { StoreTail } from './store-tail';

const caller: Caller = { tokenId: 't1', tokenName: 'test', workspaceId: 'ws1', userId: 'u1', kind: 'person' };

const event = (type: string, workspaceId: string): NewEvent => ({
  eventId: randomUUID(),
  type,
  data: {},
  metadata: {
    correlationId: randomUUID(),
    causationId: null,
    workspaceId,
    actor: { kind: 'system', component: 'test' },
  },
});

async function take(outbox: LiveOutbox<FeedEvent>, count: number): Promise<FeedEvent[]> {
  const taken: FeedEvent[] = [];
  while (taken.length < count) {
    const next = await outbox.next();
    if (next.done) break;
    taken.push(next.value);
  }
  return taken;
}

describe('EventFeeds', () => {
  let store: InMemoryEventStore;
  let tail: StoreTail;

  beforeEach(() => {
    store = new InMemoryEventStore();
    tail = new StoreTail(store, silentLogger);
  });

  afterEach(() => tail.onApplicationShutdown());

  const feeds = (settings: Partial<SubscriptionSettings>) =>
    new EventFeeds(
      store,
      tail,
      { ...subscriptionSettings({ maxBodyBytes: 100_000, maxSubscriptionsPerToken: 20 }), ...settings },
      silentLogger,
    );

  it('catches up page by page over other workspaces’ events, then goes live, with a cursor to resume after each', async () => {
    for (let i = 0; i < 5; i += 1) {
      await store.append(`task-a${i}`, [event('TaskCreated', i % 2 === 0 ? 'ws1' : 'ws2')], 'no_stream');
    }
    const outbox = await feeds({ feedPageSize: 2 }).open(caller, feedFilter(undefined), undefined, () => undefined);
    const caughtUp = await take(outbox, 3);
    expect(caughtUp.map((e) => e.event.streamId)).toEqual(['task-a0', 'task-a2', 'task-a4']);

    await store.append('task-a5', [event('TaskCreated', 'ws2')], 'no_stream');
    await store.append('task-a6', [event('TaskStopped', 'ws1')], 'no_stream');
    expect((await take(outbox, 1)).map((e) => e.event.streamId)).toEqual(['task-a6']);
    await outbox.return();

    const resumed = await feeds({ feedPageSize: 2 }).open(
      caller,
      feedFilter({ types: ['TaskCreated', 'TaskStopped'] }),
      caughtUp[1].cursor,
      () => undefined,
    );
    expect((await take(resumed, 2)).map((e) => e.event.streamId)).toEqual(['task-a4', 'task-a6']);
    await resumed.return();
  });

  it('stops reading for a client that takes nothing, and cuts it off as SLOW_CONSUMER', async () => {
    for (let i = 0; i < 10; i += 1) await store.append(`task-b${i}`, [event('TaskCreated', 'ws1')], 'no_stream');
    const readAll = jest.spyOn(store, 'readAll');
    const slow = jest.fn();
    const outbox = await feeds({ feedPageSize: 2, outboxCapacity: 3, slowConsumerTimeoutMs: 50 }).open(
      caller,
      feedFilter(undefined),
      undefined,
      slow,
    );
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(slow).toHaveBeenCalledWith(expect.objectContaining({ code: 'SLOW_CONSUMER' }));
    // The cursor check plus two pages (the store tail's own reads ask for more per batch): nothing
    // was read beyond what the outbox could hold.
    const feedReads = readAll.mock.calls.filter(([options]) => (options?.maxCount ?? Infinity) <= 2);
    expect(feedReads).toHaveLength(3);
    await expect(outbox.next()).rejects.toMatchObject({ code: 'SLOW_CONSUMER' });
  });
});
