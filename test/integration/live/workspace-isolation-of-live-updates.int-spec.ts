import { createToken, startStandaloneApi, type RunningApi } from '../api/support/standalone-api';
import { sendAndSettle } from '../api/support/queries';
import { liveClient, subscribe, type LiveSubscription } from './support/live-client';
import { storedEvents } from './support/workspace-events';

interface MainPayload {
  mainlineUpdated: { snapshot: boolean; items: Array<{ id: string }> };
}
interface TaskPayload {
  taskUpdated: { task: { id: string } };
}
interface FeedPayload {
  eventFeed: { cursor: string; event: { eventId: string; streamId: string } };
}

const MAINLINE = 'subscription { mainlineUpdated { snapshot items { id } } }';
const TASK_UPDATED = 'subscription($id: ID!) { taskUpdated(taskId: $id) { task { id } } }';
const FEED = 'subscription { eventFeed { cursor event { eventId streamId } } }';

const codeOf = (s: LiveSubscription<unknown>) =>
  s.end?.errors?.[0]?.extensions?.code ?? s.nextErrors[0]?.[0]?.extensions?.code;

// Two workspaces, both busy at once: B's subscriptions and feed carry B's work and none of A's.
describe('workspace isolation of subscriptions and feeds', () => {
  let api: RunningApi;
  let a: { id: string; token: string };
  let b: { id: string; token: string };

  beforeAll(async () => {
    api = await startStandaloneApi();
    a = await createToken(api, 'ws_a', 'alice');
    b = await createToken(api, 'ws_b', 'bob');
  }, 90_000);

  afterAll(async () => {
    await api?.stop();
  });

  it('workspace B’s main line, task updates and event feed never carry workspace A’s events', async () => {
    const clientA = liveClient(api, a.token);
    const clientB = liveClient(api, b.token);
    try {
      const mainA = subscribe<MainPayload>(clientA, MAINLINE);
      const mainB = subscribe<MainPayload>(clientB, MAINLINE);
      const feedB = subscribe<FeedPayload>(clientB, FEED);
      const feedA = subscribe<FeedPayload>(clientA, FEED);
      await mainB.waitFor((p) => p.mainlineUpdated.snapshot, 'B’s snapshot');

      const [workA, workB] = await Promise.all([
        sendAndSettle(api, a.token, 'Please take a note: the launch is on Friday'),
        sendAndSettle(api, b.token, 'Please take a note: order more chairs'),
      ]);

      // A's task is invisible to B: NOT_FOUND, exactly like an id that does not exist.
      const foreign = subscribe<TaskPayload>(clientB, TASK_UPDATED, { id: workA.taskId });
      const unknown = subscribe<TaskPayload>(clientB, TASK_UPDATED, { id: '00000000-0000-4000-8000-000000000000' });
      for (const refused of [foreign, unknown]) {
        await refused.ended('the refusal');
        expect({ code: codeOf(refused), payloads: refused.payloads }).toEqual({ code: 'NOT_FOUND', payloads: [] });
      }
      const own = subscribe<TaskPayload>(clientB, TASK_UPDATED, { id: workB.taskId });
      await own.waitFor((p) => p.taskUpdated.task.id === workB.taskId, 'B’s own task');

      const logged = await storedEvents(api);
      const workspaceOf = new Map(logged.map((e) => [e.eventId, e.workspaceId]));
      const eventsOf = (ws: string) => logged.filter((e) => e.workspaceId === ws).map((e) => e.eventId);
      for (const [feed, ws, other] of [
        [feedB, 'ws_b', 'ws_a'],
        [feedA, 'ws_a', 'ws_b'],
      ] as const) {
        const expected = eventsOf(ws);
        await feed.waitFor((p) => p.eventFeed.event.eventId === expected.at(-1), `${ws}'s feed to catch up`);
        const delivered = feed.payloads.map((p) => p.eventFeed.event.eventId);
        expect(delivered.slice(0, expected.length)).toEqual(expected);
        expect(delivered.filter((id) => workspaceOf.get(id) === other)).toEqual([]);
      }
      expect(eventsOf('ws_a').length).toBeGreaterThan(0);

      await mainB.waitFor((p) => p.mainlineUpdated.items.some((i) => i.id === workB.messageId), 'B’s message');
      await mainA.waitFor((p) => p.mainlineUpdated.items.some((i) => i.id === workA.messageId), 'A’s message');
      const itemsOf = (s: LiveSubscription<MainPayload>) =>
        s.payloads.flatMap((p) => p.mainlineUpdated.items.map((i) => i.id));
      expect(new Set(itemsOf(mainB))).toEqual(new Set([workB.messageId]));
      expect(new Set(itemsOf(mainA))).toEqual(new Set([workA.messageId]));
    } finally {
      await Promise.all([clientA.dispose(), clientB.dispose()]);
    }
  }, 120_000);
});
