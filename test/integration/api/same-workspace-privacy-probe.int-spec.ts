import { randomUUID } from 'node:crypto';
import { waitFor } from '@lomo/bus/testing';
import { OPERATOR_READ_MESSAGE } from '@lomo/auth';
import { liveClient, subscribe, type LiveSubscription } from '../live/support/live-client';
import { TestReceiver } from '../notifier/support/test-receiver';
import { eventually, startStandaloneApi, type GraphqlResponse, type RunningApi } from './support/standalone-api';
import { SEND_MESSAGE } from './support/queries';

interface Token {
  id: string;
  token: string;
}
interface FeedPayload {
  eventFeed: { cursor: string; event: { eventId: string; streamId: string; type: string; dataJson: string } };
}
interface MainPayload {
  mainlineUpdated: { snapshot: boolean; items: Array<{ id: string; text: string | null }> };
}
interface EventsData {
  events: { edges: Array<{ node: { streamId: string; type: string; dataJson: string } }> };
}

const WS = 'ws_shared';
const MAIN_A = `main-${WS}.alice`;
const MAIN_B = `main-${WS}.bob`;
const FEED =
  'subscription($ws: String) { eventFeed(workspaceId: $ws, filter: { categories: [MAIN] }) { cursor event { eventId streamId type dataJson } } }';
const MAINLINE = 'subscription { mainlineUpdated { snapshot items { id text } } }';
const EVENTS = 'query($s: String!) { events(streamId: $s, first: 100) { edges { node { streamId type dataJson } } } }';
const TASKS = 'query($t: String) { tasks(first: 100, consistentWith: $t) { edges { node { id } } } }';

const codeOf = (r: GraphqlResponse<unknown>) => r.errors?.[0]?.extensions?.code;
const consistencyToken = (streamId: string, revision = 0) =>
  Buffer.from(JSON.stringify({ v: 1, p: [[streamId, revision]] }), 'utf8').toString('base64url');
const feedStreams = (s: LiveSubscription<FeedPayload>) => s.payloads.map((p) => p.eventFeed.event.streamId);
const isShared = (streamId: string) => streamId.startsWith('task-') || streamId.startsWith('turn-');
const isPrivateOf = (user: string) => (streamId: string) =>
  streamId === `main-${WS}.${user}` || streamId.startsWith(`receipt-${WS}.${user}.`);

// Two people of ONE workspace: tasks are shared, each person's main line (and message receipts)
// is theirs alone, on every read path of one real process; an operator sees both, and is logged.
describe("same-workspace probe: person B never sees person A's main line", () => {
  let api: RunningApi;
  let receiverA: TestReceiver;
  let receiverB: TestReceiver;
  let a: Token;
  let b: Token;
  let op: Token;
  /**
   * Every raw response B's token got, to search for A's texts at the end; apart, what B read of
   * the shared task streams (a routed message's text is task content: TaskCreated.goal and
   * MessageDeliveredToInbox.text, shared in the workspace by the policy).
   */
  const seenByB: string[] = [];
  const sharedSeenByB: string[] = [];
  const secretA = `alpha-${randomUUID()}`;
  const secretALive = `alpha-live-${randomUUID()}`;
  const textA = `Please take a note: ${secretA}`;
  const textALive = `Please take a note: ${secretALive}`;
  const textB = `Please take a note: bravo-${randomUUID()}`;
  const textBLive = `Please take a note: bravo-live-${randomUUID()}`;

  const createToken = async (user: string, kind: string, workspace = WS): Promise<Token> => {
    const created = await api.tokens(['create', '--workspace', workspace, '--user', user, '--kind', kind]);
    if (created.code !== 0) throw new Error(`tokens create failed: ${created.stderr}`);
    return JSON.parse(created.stdout.trim()) as Token;
  };
  const gqlAs = async <T>(who: Token, query: string, variables?: Record<string, unknown>, shared = false) => {
    const result = await api.gql<T>(who.token, query, variables);
    if (who === b) (shared ? sharedSeenByB : seenByB).push(JSON.stringify(result));
    return result;
  };

  /** Sends with a clientMessageId (a receipt stream too) and waits for the task it starts. */
  const sendAndRoute = async (who: Token, text: string) => {
    const sent = await gqlAs<{ sendMessage: { messageId: string; consistencyToken: string } }>(who, SEND_MESSAGE, {
      text,
      client: `client-${randomUUID()}`,
    });
    if (!sent.data) throw new Error(`sendMessage failed: ${JSON.stringify(sent.errors)}`);
    const { messageId, consistencyToken: token } = sent.data.sendMessage;
    type Routed = { message: { routing: { taskId: string | null } | null } | null };
    const routed = await eventually(
      () =>
        gqlAs<Routed>(
          who,
          'query($id: ID!, $t: String) { message(id: $id, consistentWith: $t) { routing { taskId } } }',
          {
            id: messageId,
            t: token,
          },
        ),
      (r) => r.data?.message?.routing?.taskId != null,
      'the message routed to a task',
    );
    return { messageId, token, taskId: routed.data!.message!.routing!.taskId! };
  };

  beforeAll(async () => {
    [receiverA, receiverB] = await Promise.all([TestReceiver.start(), TestReceiver.start()]);
    api = await startStandaloneApi({
      LOMO_WEBHOOK_POLL_MS: '50',
      LOMO_WEBHOOK_RECONCILE_MS: '50',
      LOMO_WEBHOOK_HTTP_ALLOWLIST: '127.0.0.1',
    });
    [a, b, op] = await Promise.all([
      createToken('alice', 'person'),
      createToken('bob', 'person'),
      createToken('sam', 'operator', 'ops'),
    ]);
  }, 120_000);

  afterAll(async () => {
    await api?.stop();
    await Promise.all([receiverA?.close(), receiverB?.close()]);
  });

  it('holds on events, eventFeed (catch-up and live), mainlineUpdated, webhooks and consistency tokens', async () => {
    // Webhooks first, so they see everything from the start: each person's, for main and task.
    const register = 'mutation($url: String!) { registerWebhook(url: $url, eventTypes: ["main", "task"]) { secret } }';
    for (const [who, receiver] of [
      [a, receiverA],
      [b, receiverB],
    ] as const) {
      const registered = await gqlAs<{ registerWebhook: { secret: string } }>(who, register, { url: receiver.url });
      expect(registered.errors).toBeUndefined();
    }

    const clientA = liveClient(api, a.token);
    const clientB = liveClient(api, b.token);
    const clientOp = liveClient(api, op.token);
    try {
      const mainA = subscribe<MainPayload>(clientA, MAINLINE);
      const mainB = subscribe<MainPayload>(clientB, MAINLINE);
      await Promise.all([
        mainA.waitFor((p) => p.mainlineUpdated.snapshot, 'A’s snapshot'),
        mainB.waitFor((p) => p.mainlineUpdated.snapshot, 'B’s snapshot'),
      ]);

      const [workA, workB] = await Promise.all([sendAndRoute(a, textA), sendAndRoute(b, textB)]);
      expect(workA.taskId).not.toBe(workB.taskId);
      const receiptA = `receipt-${WS}.alice.${workA.messageId}`;

      // --- events(streamId): B reads A's main line and receipt as empty; A and the operator read them.
      for (const streamId of [MAIN_A, receiptA]) {
        const asB = await gqlAs<EventsData>(b, EVENTS, { s: streamId });
        expect({ streamId, errors: asB.errors, edges: asB.data?.events.edges }).toEqual({
          streamId,
          errors: undefined,
          edges: [],
        });
        const asA = await gqlAs<EventsData>(a, EVENTS, { s: streamId });
        expect(asA.data?.events.edges.length).toBeGreaterThan(0);
      }
      const ownA = await gqlAs<EventsData>(a, EVENTS, { s: MAIN_A });
      expect(JSON.stringify(ownA)).toContain(secretA);
      const ownB = await gqlAs<EventsData>(b, EVENTS, { s: MAIN_B });
      expect(ownB.data?.events.edges.length).toBeGreaterThan(0);

      // --- shared tasks: both see both tasks and their events.
      for (const who of [a, b]) {
        const tasks = await gqlAs<{ tasks: { edges: Array<{ node: { id: string } }> } }>(who, TASKS, {
          t: who === a ? workA.token : workB.token,
        });
        expect(tasks.data?.tasks.edges.map((e) => e.node.id)).toEqual(
          expect.arrayContaining([workA.taskId, workB.taskId]),
        );
        for (const taskId of [workA.taskId, workB.taskId]) {
          const events = await gqlAs<EventsData>(who, EVENTS, { s: `task-${taskId}` }, true);
          expect(events.data?.events.edges.map((e) => e.node.type)).toContain('TaskCreated');
        }
      }

      // --- consistency tokens: naming A's main line (or receipt) is refused for B exactly like a
      // main line that does not exist; A's own token is accepted for A.
      const refusals: unknown[] = [];
      for (const t of [
        workA.token,
        consistencyToken(MAIN_A),
        consistencyToken(receiptA),
        consistencyToken(`main-${WS}.nobody`),
      ]) {
        const asB = await gqlAs<unknown>(b, TASKS, { t });
        expect({ code: codeOf(asB), data: asB.data ?? null }).toEqual({
          code: 'INVALID_CONSISTENCY_TOKEN',
          data: null,
        });
        refusals.push(asB.errors);
      }
      expect(new Set(refusals.map((r) => JSON.stringify(r))).size).toBe(1);
      const accepted = await gqlAs<unknown>(a, TASKS, { t: consistencyToken(MAIN_A) });
      expect(accepted.errors).toBeUndefined();
      const acceptedB = await gqlAs<unknown>(b, TASKS, { t: workB.token });
      expect(acceptedB.errors).toBeUndefined();

      // --- eventFeed(MAIN): catch-up first, then live while A and B each send another message.
      const feedA = subscribe<FeedPayload>(clientA, FEED);
      const feedB = subscribe<FeedPayload>(clientB, FEED);
      const feedOp = subscribe<FeedPayload>(clientOp, FEED, { ws: WS });
      const refusedB = subscribe<FeedPayload>(clientB, FEED, { ws: 'ops' });
      await refusedB.ended('B naming another workspace');
      expect(refusedB.end?.errors?.[0]?.extensions?.code ?? refusedB.nextErrors[0]?.[0]?.extensions?.code).toBe(
        'FORBIDDEN',
      );
      await feedB.waitFor((p) => p.eventFeed.event.streamId === MAIN_B, 'B’s own main events (catch-up)');
      await feedA.waitFor((p) => p.eventFeed.event.streamId === MAIN_A, 'A’s own main events (catch-up)');
      const caughtUpB = feedB.payloads.length;
      const caughtUpA = feedA.payloads.length;

      const [liveA, liveB] = await Promise.all([sendAndRoute(a, textALive), sendAndRoute(b, textBLive)]);
      await feedA.waitFor((p) => p.eventFeed.event.dataJson.includes(secretALive), 'A’s live message', caughtUpA);
      await feedB.waitFor((p) => p.eventFeed.event.dataJson.includes(textBLive), 'B’s live message', caughtUpB);
      await feedOp.waitFor((p) => p.eventFeed.event.dataJson.includes(secretALive), 'A’s live message, operator');
      await feedOp.waitFor((p) => p.eventFeed.event.dataJson.includes(textBLive), 'B’s live message, operator');
      // A little longer, so a late leak of A's events into B's feed would show.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(feedStreams(feedB).filter(isPrivateOf('alice'))).toEqual([]);
      expect(feedStreams(feedB).every((s) => s === MAIN_B)).toBe(true);
      expect(feedStreams(feedA).filter(isPrivateOf('bob'))).toEqual([]);
      expect(new Set(feedStreams(feedOp))).toEqual(new Set([MAIN_A, MAIN_B]));
      seenByB.push(JSON.stringify(feedB.payloads), JSON.stringify(refusedB.end));

      // --- mainlineUpdated: B's shows B's messages only; A's shows A's.
      await mainB.waitFor((p) => p.mainlineUpdated.items.some((i) => i.id === liveB.messageId), 'B’s live item');
      await mainA.waitFor((p) => p.mainlineUpdated.items.some((i) => i.id === liveA.messageId), 'A’s live item');
      const itemsOf = (s: LiveSubscription<MainPayload>) =>
        new Set(s.payloads.flatMap((p) => p.mainlineUpdated.items.map((i) => i.id)));
      expect(itemsOf(mainB)).toEqual(new Set([workB.messageId, liveB.messageId]));
      expect(itemsOf(mainA)).toEqual(new Set([workA.messageId, liveA.messageId]));
      seenByB.push(JSON.stringify(mainB.payloads));

      // --- webhooks: B's receiver gets B's main events and both tasks' events, none of A's main line.
      const delivered = (r: TestReceiver) => r.accepted.map((q) => q.body);
      await waitFor(
        () => {
          const bodies = delivered(receiverB);
          const created = bodies.filter((d) => d.type === 'TaskCreated').map((d) => d.metadata.streamId);
          return (
            bodies.some((d) => d.metadata.streamId === MAIN_B && JSON.stringify(d).includes(textBLive)) &&
            created.includes(`task-${workA.taskId}`) &&
            created.includes(`task-${workB.taskId}`) &&
            created.includes(`task-${liveA.taskId}`)
          );
        },
        'B’s webhook deliveries',
        30_000,
      );
      await waitFor(
        () => delivered(receiverA).some((d) => JSON.stringify(d).includes(secretALive)),
        'A’s webhook deliveries of A’s main line',
        30_000,
      );
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const streamsToB = delivered(receiverB).map((d) => d.metadata.streamId);
      expect(streamsToB.filter(isPrivateOf('alice'))).toEqual([]);
      expect(streamsToB).toContain(MAIN_B);
      expect(delivered(receiverA).map((d) => d.metadata.streamId)).toContain(MAIN_A);
      expect(
        delivered(receiverA)
          .map((d) => d.metadata.streamId)
          .filter(isPrivateOf('bob')),
      ).toEqual([]);
      for (const r of receiverB.requests)
        (isShared(r.body.metadata.streamId) ? sharedSeenByB : seenByB).push(r.rawBody);

      // --- the operator: any workspace's main lines, each read logged with the token and workspace.
      for (const streamId of [MAIN_A, MAIN_B]) {
        const asOp = await gqlAs<EventsData>(op, EVENTS, { s: streamId });
        expect(asOp.data?.events.edges.length).toBeGreaterThan(0);
      }
      await waitFor(
        () =>
          ['events', 'eventFeed'].every((path) =>
            api.lines.some(
              (l) => l.msg === OPERATOR_READ_MESSAGE && l.tokenId === op.id && l.workspaceId === WS && l.path === path,
            ),
          ),
        'operator read lines',
        10_000,
      );
      expect(
        api.lines.filter((l) => l.msg === OPERATOR_READ_MESSAGE && (l.tokenId === a.id || l.tokenId === b.id)),
      ).toEqual([]);

      // --- nothing B received anywhere carries A's texts (while A's own reads do).
      const everythingB = seenByB.join('\n');
      expect(everythingB).toContain(textBLive);
      for (const secret of [secretA, secretALive]) expect(everythingB.includes(secret)).toBe(false);
      // What B read of the shared task streams carries A's text only in task events (by design).
      const sharedWithA = sharedSeenByB.filter((raw) => raw.includes(secretA) || raw.includes(secretALive));
      for (const raw of sharedWithA) {
        const parsed = JSON.parse(raw) as { metadata?: { streamId: string }; data?: EventsData };
        const streamIds = parsed.metadata
          ? [parsed.metadata.streamId]
          : (parsed.data?.events.edges.map((e) => e.node.streamId) ?? []);
        expect(streamIds.length > 0 && streamIds.every(isShared)).toBe(true);
      }
      expect(JSON.stringify(feedA.payloads)).toContain(secretALive);
    } finally {
      await Promise.all([clientA.dispose(), clientB.dispose(), clientOp.dispose()]);
    }
  }, 180_000);
});
