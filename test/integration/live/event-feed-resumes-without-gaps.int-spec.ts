import { startStandaloneApi, type RunningApi } from '../api/support/standalone-api';
import { sendAndSettle } from '../api/support/queries';
import { liveClient, subscribe, type LiveSubscription } from './support/live-client';
import { storedEvents } from './support/workspace-events';

interface FeedPayload {
  eventFeed: { cursor: string; event: { eventId: string; streamId: string; type: string; position: string } };
}

const FEED = `subscription($after: String, $filter: EventFeedFilter) {
  eventFeed(after: $after, filter: $filter) { cursor event { eventId streamId type position } }
}`;

const idsOf = (feed: LiveSubscription<FeedPayload>) => feed.payloads.map((p) => p.eventFeed.event.eventId);

describe('event feed for integrations', () => {
  let api: RunningApi;

  beforeAll(async () => {
    api = await startStandaloneApi();
  }, 90_000);

  afterAll(async () => {
    await api?.stop();
  });

  /** The dev workspace's events in the store now, in order. */
  const devEvents = async () => (await storedEvents(api)).filter((e) => e.workspaceId === 'dev');

  /** Waits until the feed has delivered `expected` (and maybe more), then checks it is exactly that prefix. */
  async function expectPrefix(feed: LiveSubscription<FeedPayload>, expected: string[], handled: string[] = []) {
    const last = expected.at(-1)!;
    await feed.waitFor((p) => p.eventFeed.event.eventId === last, `the feed to reach event ${last}`);
    const delivered = [...handled, ...idsOf(feed)];
    expect(delivered.slice(0, expected.length)).toEqual(expected);
  }

  it('resumes after a disconnect mid-stream from the last cursor with no gap and no duplicate, then goes live', async () => {
    await sendAndSettle(api, api.devToken, 'Please take a note: call the printer');
    const first = liveClient(api, api.devToken);
    const before = subscribe<FeedPayload>(first, FEED);
    await before.waitFor(() => before.payloads.length >= 4, 'four events of the catch-up');
    // The client handled three events, then went away with whatever else was in flight.
    await first.dispose();
    const handled = before.payloads.slice(0, 3);
    const lastCursor = handled[2].eventFeed.cursor;

    await sendAndSettle(api, api.devToken, 'Please take a note: water the plants');
    const second = liveClient(api, api.devToken);
    try {
      const resumed = subscribe<FeedPayload>(second, FEED, { after: lastCursor });
      const expected = (await devEvents()).map((e) => e.eventId);
      expect(expected.length).toBeGreaterThan(handled.length);
      await expectPrefix(
        resumed,
        expected,
        handled.map((p) => p.eventFeed.event.eventId),
      );
      expect(new Set(idsOf(resumed)).size).toBe(resumed.payloads.length);

      // Caught up, the same subscription carries what is appended from now on.
      await sendAndSettle(api, api.devToken, 'Please take a note: book the venue');
      const live = (await devEvents()).map((e) => e.eventId);
      expect(live.length).toBeGreaterThan(expected.length);
      await expectPrefix(
        resumed,
        live,
        handled.map((p) => p.eventFeed.event.eventId),
      );

      // Positions only grow along the feed, and each cursor is the resume point right after its event.
      const positions = resumed.payloads.map((p) => BigInt(p.eventFeed.event.position));
      for (let i = 1; i < positions.length; i += 1) expect(positions[i] > positions[i - 1]).toBe(true);
      const fromMiddle = subscribe<FeedPayload>(second, FEED, { after: resumed.payloads[1].eventFeed.cursor });
      await expectPrefix(fromMiddle, idsOf(resumed).slice(2));
      fromMiddle.unsubscribe();

      // Filters by category and type, on top of the workspace.
      const routings = subscribe<FeedPayload>(second, FEED, {
        filter: { categories: ['MAIN'], types: ['RoutingDecided'] },
      });
      const expectedRoutings = (await devEvents()).filter((e) => e.type === 'RoutingDecided').map((e) => e.eventId);
      expect(expectedRoutings).toHaveLength(3);
      await expectPrefix(routings, expectedRoutings);
      expect(routings.payloads.every((p) => p.eventFeed.event.streamId === 'main-dev.dev')).toBe(true);
    } finally {
      await second.dispose();
    }
  }, 120_000);

  it('refuses a cursor it did not issue and an unknown event type with VALIDATION_FAILED', async () => {
    const client = liveClient(api, api.devToken);
    try {
      const badCursor = subscribe<FeedPayload>(client, FEED, { after: 'bm90IGEgY3Vyc29y' });
      const badType = subscribe<FeedPayload>(client, FEED, { filter: { types: ['TaskStoped'] } });
      for (const feed of [badCursor, badType]) {
        const end = await feed.ended('the refusal');
        expect(end.errors?.[0]?.extensions?.code ?? feed.nextErrors[0]?.[0]?.extensions?.code).toBe(
          'VALIDATION_FAILED',
        );
        expect(feed.payloads).toEqual([]);
      }
    } finally {
      await client.dispose();
    }
  });
});
