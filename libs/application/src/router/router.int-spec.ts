import { randomUUID } from 'node:crypto';
import type { INestApplicationContext } from '@nestjs/common';
import { toRelayedMessage, type ReceivedMessage } from '@lomo/bus';
import { waitFor } from '@lomo/bus/testing';
import { mainEvents, streams, type EventEnvelope } from '@lomo/contracts';
import { taskDecider } from '@lomo/domain';
import { handleCommand } from '@lomo/command-handling';
import { ScriptedModelProvider } from '@lomo/llm';
import { taskIdFor } from '@lomo/routing';
import { FakeRoutingCandidates } from '@lomo/routing/testing';
import { RouteUserMessageHandler } from './route-user-message.handler';
import { routingEventIdFor } from './routing-log';
import { routerMetadata } from './router-metadata';
import { readTask } from './task-writes';
import { RouterService } from './router.service';
import { MAIN, RouterHarness, USER, WORKSPACE } from '../testing/router-harness';
import { taskEventTypes } from '@lomo/domain';

/** A model that files every message it is asked about as new persistent work (these tests are about delivery, not choice). */
function alwaysNew(): ScriptedModelProvider {
  const model = new ScriptedModelProvider();
  const answer = () => ({
    json: { outcome: 'new', taskRef: null, scores: [], reply: null, goal: null, question: null },
  });
  for (let i = 0; i < 50; i += 1) model.push({ reply: answer });
  return model;
}

const routerOptions = () => ({ model: alwaysNew(), candidates: new FakeRoutingCandidates() });

/** A relayed message as a consumer receives it, for redelivering one by hand. */
function asReceived(envelope: EventEnvelope): ReceivedMessage {
  const { key, value, headers } = toRelayedMessage(envelope);
  return {
    topic: 'lomo.events.main',
    partition: 0,
    offset: 0,
    timestamp: Date.now(),
    key,
    value: { ...value },
    headers: { ...headers },
  };
}

const typesOf = (events: EventEnvelope[]) => events.map((e) => e.type);
const routingOf = async (h: RouterHarness, messageId: string) =>
  (await h.eventsOf(MAIN)).filter((e) => e.metadata.eventId === routingEventIdFor(messageId));
const wakeUpsFor = (h: RouterHarness, taskId: string) => h.wakeUps.filter((m) => m.value.taskId === taskId);

describe('router delivery: SQLite store, in-process bus, relay', () => {
  let h: RouterHarness;
  let app: INestApplicationContext;

  beforeAll(async () => {
    h = await RouterHarness.open();
    app = await h.startRouterApp(routerOptions());
    h.relay.start();
  });

  afterAll(async () => {
    await app?.close();
    await h?.close();
  });

  it('a new message → RoutingDecided, then TaskCreated and the delivery on a task derived from the message, then a wake-up', async () => {
    const message = await h.receive('Dessine-moi une affiche bleue', { clientMessageId: 'poster-1', language: 'fr' });
    const messageId = message.metadata.eventId;
    const taskId = taskIdFor(messageId);
    await waitFor(async () => wakeUpsFor(h, taskId).length > 0, 'the wake-up of the new task', 10_000);

    const routing = await routingOf(h, messageId);
    expect(routing.map((e) => e.data)).toEqual([
      {
        messageId,
        outcome: 'new',
        taskId,
        method: 'semantic',
        candidates: [],
        modelStep: expect.objectContaining({ model: 'scripted', attempts: 1 }),
        duplicateCheck: { candidates: [], verdict: 'none' },
        latencyMs: expect.any(Number),
      },
    ]);
    const task = await h.eventsOf(streams.task(taskId));
    expect(typesOf(task)).toEqual(['TaskCreated', 'MessageDeliveredToInbox']);
    expect(task[0].data).toEqual({
      taskId,
      kind: 'persistent',
      goal: 'Dessine-moi une affiche bleue',
      language: 'fr',
      originMessageId: messageId,
    });
    expect(task[1].data).toEqual({
      itemId: messageId,
      messageId,
      text: 'Dessine-moi une affiche bleue',
      language: 'fr',
      // The sender, whose memory a step working on it may recall.
      from: 'u1',
    });
    for (const written of [...routing, ...task]) {
      expect(written.metadata).toMatchObject({
        correlationId: 'corr-poster-1',
        causationId: messageId,
        workspaceId: WORKSPACE,
        actor: { kind: 'system', component: 'router' },
      });
    }
    expect(wakeUpsFor(h, taskId)[0]).toMatchObject({
      key: taskId,
      value: { kind: 'wake', workspaceId: WORKSPACE, taskId, reason: 'message' },
    });
  });

  it("one person's messages are routed in arrival order", async () => {
    const sent: string[] = [];
    for (let i = 0; i < 6; i += 1)
      sent.push((await h.receive(`Order check ${i}`, { clientMessageId: `order-${i}` })).metadata.eventId);
    await waitFor(
      async () =>
        (await h.eventsOf(MAIN)).filter(
          (e) => e.type === 'RoutingDecided' && sent.includes(String((e.data as { messageId: string }).messageId)),
        ).length === 6,
      'six decisions',
      10_000,
    );
    const decided = (await h.eventsOf(MAIN))
      .filter((e) => e.type === 'RoutingDecided')
      .map((e) => (e.data as { messageId: string }).messageId)
      .filter((id) => sent.includes(id));
    expect(decided).toEqual(sent);
  });

  it('redelivering the same relayed message twice writes nothing new', async () => {
    const message = await h.receive('Make a birthday card', { clientMessageId: 'card-1' });
    const taskId = taskIdFor(message.metadata.eventId);
    await waitFor(async () => wakeUpsFor(h, taskId).length > 0, 'the first routing', 10_000);
    const head = await h.store.headPosition();

    const router = app.get(RouterService);
    const again = await router.handle(asReceived(message));
    const thrice = await router.handle(asReceived(message));

    expect(await h.store.headPosition()).toBe(head);
    expect(again).toMatchObject({ decisionWritten: false, deliveredTo: taskId });
    expect(thrice).toMatchObject({ decisionWritten: false, deliveredTo: taskId });
    expect(typesOf(await h.eventsOf(streams.task(taskId)))).toEqual(['TaskCreated', 'MessageDeliveredToInbox']);
    expect(await routingOf(h, message.metadata.eventId)).toHaveLength(1);
  });

  it('a message naming an existing task lands in its inbox', async () => {
    const first = await h.receive('Plan a trip to Lisbon', { clientMessageId: 'trip-1' });
    const taskId = taskIdFor(first.metadata.eventId);
    await waitFor(async () => wakeUpsFor(h, taskId).length > 0, 'the task to exist', 10_000);

    const followUp = await h.receive('Add a day in Sintra', { clientMessageId: 'trip-2', targetTaskId: taskId });
    await waitFor(async () => wakeUpsFor(h, taskId).length > 1, 'the second wake-up', 10_000);

    expect((await routingOf(h, followUp.metadata.eventId)).map((e) => e.data)).toEqual([
      {
        messageId: followUp.metadata.eventId,
        outcome: 'existing',
        taskId,
        method: 'deterministic',
        candidates: [{ taskId, score: 1, source: 'explicit' }],
        reason: 'the message names its task',
        latencyMs: expect.any(Number),
      },
    ]);
    const task = await h.eventsOf(streams.task(taskId));
    expect(typesOf(task)).toEqual(['TaskCreated', 'MessageDeliveredToInbox', 'MessageDeliveredToInbox']);
    const state = await readTask(h.store, taskId, WORKSPACE);
    expect(state.status !== 'none' && Object.keys(state.inbox)).toEqual([
      first.metadata.eventId,
      followUp.metadata.eventId,
    ]);
  });

  it.each([
    ['stopped', true],
    ['missing', false],
  ])('a message naming a %s task is not delivered: the outcome is clarify, with the reason', async (what, exists) => {
    const origin = await h.receive(`Old work (${what})`, { clientMessageId: `old-${what}` });
    const taskId = taskIdFor(origin.metadata.eventId);
    await waitFor(async () => wakeUpsFor(h, taskId).length > 0, 'the task to exist', 10_000);
    const target = exists ? taskId : taskIdFor(`${origin.metadata.eventId}-never-created`);
    if (exists) {
      const stop = { type: 'StopTask' as const, by: { kind: 'user' as const, userId: 'u1' } };
      const state = await readTask(h.store, taskId, WORKSPACE);
      const [stopped] = taskDecider.decide(stop, state);
      await h.store.append(
        streams.task(taskId),
        [
          {
            eventId: taskIdFor(`stop-${taskId}`),
            ...stopped,
            metadata: { correlationId: 'stop', causationId: null, workspaceId: WORKSPACE, actor: stop.by },
          },
        ],
        1,
      );
    }
    const before = (await h.eventsOf(streams.task(target))).length;
    const late = await h.receive('Are you still on it?', { clientMessageId: `late-${what}`, targetTaskId: target });
    await waitFor(async () => (await routingOf(h, late.metadata.eventId)).length > 0, 'the routing decision', 10_000);

    expect((await routingOf(h, late.metadata.eventId))[0].data).toEqual({
      messageId: late.metadata.eventId,
      outcome: 'clarify',
      taskId: null,
      method: 'deterministic',
      candidates: [{ taskId: target, score: 1, source: 'explicit' }],
      reason: exists ? 'target task is stopped' : 'target task not found',
      latencyMs: expect.any(Number),
    });
    const result = await app.get(RouterService).handle(asReceived(late));
    expect(result).toMatchObject({ deliveredTo: null, woke: false });
    expect(await h.eventsOf(streams.task(target))).toHaveLength(before);
  });
});

describe('router: tenancy', () => {
  let h: RouterHarness;
  let app: INestApplicationContext;
  beforeAll(async () => {
    h = await RouterHarness.open();
    app = await h.startRouterApp(routerOptions());
  });
  afterAll(async () => {
    await app.close();
    await h.close();
  });

  it('a message naming a task of another workspace is not delivered: to its sender that task does not exist', async () => {
    const origin = await h.receive('Workspace one’s work', { clientMessageId: 'tenant-a' });
    const taskId = taskIdFor(origin.metadata.eventId);
    expect(await app.get(RouterService).handle(asReceived(origin))).toMatchObject({ deliveredTo: taskId });
    const intruder = await h.receive('Let me in', {
      clientMessageId: 'tenant-b',
      targetTaskId: taskId,
      workspaceId: 'ws2',
    });
    const before = (await h.eventsOf(streams.task(taskId))).length;
    const result = await app.get(RouterService).handle(asReceived(intruder));
    expect(result).toMatchObject({ deliveredTo: null, woke: false });
    const decision = (await h.eventsOf(streams.main('ws2', USER))).find((e) => e.type === 'RoutingDecided');
    expect(decision?.data).toMatchObject({ outcome: 'clarify', taskId: null, reason: 'target task not found' });
    expect(await h.eventsOf(streams.task(taskId))).toHaveLength(before);
  });
});

describe('router: a crash between RoutingDecided and the delivery is repaired on redelivery', () => {
  let h: RouterHarness;
  let app: INestApplicationContext;

  beforeAll(async () => {
    h = await RouterHarness.open();
    // No relay here: the test plays the consumer itself, so nothing routes behind its back.
    app = await h.startRouterApp(routerOptions());
  });

  afterAll(async () => {
    await app?.close();
    await h?.close();
  });

  it('the re-run finds the recorded decision and writes only what is missing', async () => {
    const message = await h.receive('Design a logo', { clientMessageId: 'logo-1' });
    const messageId = message.metadata.eventId;
    const taskId = taskIdFor(messageId);
    const handler = app.get(RouteUserMessageHandler);

    // First run: the decision is recorded, then the process dies before touching the task.
    const first = await handler.recordRouting(message);
    expect(first).toMatchObject({ written: true, decision: { outcome: 'new', taskId } });
    expect(await h.eventsOf(streams.task(taskId))).toEqual([]);

    // The bus redelivers (twice, for good measure).
    const router = app.get(RouterService);
    const repaired = await router.handle(asReceived(message));
    await router.handle(asReceived(message));

    expect(repaired).toMatchObject({ decisionWritten: false, deliveredTo: taskId, woke: true });
    expect(await routingOf(h, messageId)).toHaveLength(1);
    expect(typesOf(await h.eventsOf(streams.task(taskId)))).toEqual(['TaskCreated', 'MessageDeliveredToInbox']);
    await waitFor(async () => wakeUpsFor(h, taskId).length >= 1, 'the wake-up', 10_000);
  });

  it('a crash between TaskCreated and the delivery is repaired the same way', async () => {
    const message = await h.receive('Write a haiku', { clientMessageId: 'haiku-1' });
    const messageId = message.metadata.eventId;
    const taskId = taskIdFor(messageId);
    const handler = app.get(RouteUserMessageHandler);
    await handler.recordRouting(message);
    // The half-done run: the task exists, the message is not in it yet.
    const data = mainEvents.UserMessageReceived.parse(message.data);
    await handleCommand(
      h.store,
      streams.task(taskId),
      taskDecider,
      {
        type: 'CreateTask',
        taskId,
        kind: 'persistent',
        goal: data.text,
        language: data.language,
        originMessageId: data.messageId,
      },
      { eventTypes: taskEventTypes, metadata: routerMetadata(message), ids: { uuid: () => randomUUID() } },
    );
    expect(typesOf(await h.eventsOf(streams.task(taskId)))).toEqual(['TaskCreated']);

    const repaired = await app.get(RouterService).handle(asReceived(message));

    expect(repaired).toMatchObject({ decisionWritten: false, deliveredTo: taskId });
    expect(typesOf(await h.eventsOf(streams.task(taskId)))).toEqual(['TaskCreated', 'MessageDeliveredToInbox']);
    expect(await routingOf(h, messageId)).toHaveLength(1);
  });
});
