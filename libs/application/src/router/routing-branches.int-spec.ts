import { randomUUID } from 'node:crypto';
import type { INestApplicationContext } from '@nestjs/common';
import { handleCommand } from '@lomo/command-handling';
import { mainEvents, streams, type EventEnvelope } from '@lomo/contracts';
import { taskDecider, taskEventTypes, type TaskCommand } from '@lomo/domain';
import {
  chineseScript,
  ModelTimeoutError,
  OfflineModelProvider,
  ScriptedModelProvider,
  type CompletionRequest,
} from '@lomo/llm';
import { taskIdFor } from '@lomo/routing';
import { FakeArtifactBindings, FakeRoutingCandidates } from '@lomo/routing/testing';
import { ProjectedArtifactBindings } from '@lomo/workspace';
import { ArtifactEventWriter, WorkspaceTestProjector } from '@lomo/workspace/testing';
import { RouteUserMessage, type RouteUserMessageResult } from './route-user-message.command';
import { RouteUserMessageHandler } from './route-user-message.handler';
import { MAIN, RouterHarness, WORKSPACE } from '../testing/router-harness';

// Every branch of the router with a scripted model (issue "router": Must show). Each test opens
// its own harness so no decision leaks into the next one's main line.

type Answer = {
  outcome: 'main' | 'lightweight' | 'existing' | 'new' | 'clarify';
  taskRef: string | null;
  scores: Array<{ ref: string; score: number }>;
  reply: string | null;
  goal: string | null;
  question: string | null;
};
const answer = (a: Partial<Answer> & Pick<Answer, 'outcome'>): Answer => ({
  taskRef: null,
  scores: [],
  reply: null,
  goal: null,
  question: null,
  ...a,
});

/** The candidates of a routing prompt as the model sees them (the last user message is the RoutingPrompt JSON). */
function promptCandidates(request: CompletionRequest): Array<{ ref: string; goal: string; source: string }> {
  const last = [...request.messages].reverse().find((m) => m.role === 'user');
  return JSON.parse(last!.content).candidates;
}
const refOfGoal = (request: CompletionRequest, part: string) => {
  const found = promptCandidates(request).find((c) => c.goal.includes(part));
  if (!found) throw new Error(`no candidate with "${part}" in the prompt`);
  return found.ref;
};

interface World {
  h: RouterHarness;
  app: INestApplicationContext;
  model: ScriptedModelProvider;
  candidates: FakeRoutingCandidates;
  bindings: FakeArtifactBindings;
}

async function world(): Promise<World> {
  const h = await RouterHarness.open();
  const model = new ScriptedModelProvider();
  const candidates = new FakeRoutingCandidates();
  const bindings = new FakeArtifactBindings();
  const app = await h.startRouterApp({ model, candidates, bindings, timeoutMs: 2_000 });
  return { h, app, model, candidates, bindings };
}

const ids = { uuid: () => randomUUID() };
const meta = {
  correlationId: 'seed',
  causationId: null,
  workspaceId: WORKSPACE,
  actor: { kind: 'user' as const, userId: 'u1' },
};

/** A task with real events (the router's target checks read them) and in the fake index. */
async function seedTask(
  w: World,
  goal: string,
  options: { then?: TaskCommand[]; kind?: 'lightweight' | 'persistent'; minutesAgo?: number; index?: boolean } = {},
): Promise<string> {
  const taskId = randomUUID();
  const commands: TaskCommand[] = [
    {
      type: 'CreateTask',
      taskId,
      kind: options.kind ?? 'persistent',
      goal,
      language: 'en',
      originMessageId: randomUUID(),
    },
    ...(options.then ?? []),
  ];
  let status: 'active' | 'archived' | 'stopped' | 'paused' | 'waiting' = 'active';
  for (const command of commands) {
    const result = await handleCommand(w.h.store, streams.task(taskId), taskDecider, command, {
      eventTypes: taskEventTypes,
      metadata: meta,
      ids,
    });
    if (result.state.status !== 'none' && result.state.status !== 'completed') status = result.state.status;
  }
  if (options.index !== false)
    w.candidates.add(WORKSPACE, {
      taskId,
      goal,
      summary: null,
      kind: options.kind ?? 'persistent',
      status,
      lastActiveAt: new Date(Date.now() - (options.minutesAgo ?? 10) * 60_000).toISOString(),
    });
  return taskId;
}

let seq = 0;
async function send(
  w: World,
  text: string,
  options: Parameters<RouterHarness['receive']>[1] extends infer O ? Partial<O> : never = {},
): Promise<{ message: EventEnvelope; result: RouteUserMessageResult }> {
  seq += 1;
  const message = await w.h.receive(text, { clientMessageId: `m-${seq}`, ...options });
  const result = await w.app.get(RouteUserMessageHandler).execute(new RouteUserMessage(message));
  return { message, result };
}

const dataOf = (e: EventEnvelope) => e.data as Record<string, unknown>;
const mainLine = async (w: World) => w.h.eventsOf(MAIN);
const cardOf = async (w: World, messageId: string) => {
  const card = (await mainLine(w)).find(
    (e) => e.type === 'ClarificationRequested' && dataOf(e).messageId === messageId,
  );
  return card === undefined ? undefined : mainEvents.ClarificationRequested.parse(card.data);
};
const inboxOf = async (w: World, taskId: string) =>
  (await w.h.eventsOf(streams.task(taskId))).filter((e) => e.type === 'MessageDeliveredToInbox');

describe('router branches (scripted model)', () => {
  let w: World;
  beforeEach(async () => {
    w = await world();
  });
  afterEach(async () => {
    await w.app.close();
    await w.h.close();
  });

  it('an explicit task id never calls the model and delivers to that task', async () => {
    const taskId = await seedTask(w, 'Spring fair poster');
    const { result } = await send(w, 'Make the title bigger', { targetTaskId: taskId });
    expect(result).toMatchObject({ deliveredTo: taskId, decision: { outcome: 'existing', method: 'deterministic' } });
    expect(w.model.neverCalled).toBe(true);
    expect(w.candidates.retrievals).toEqual([]);
  });

  it('a card action (channel card, naming its task) never calls the model', async () => {
    const taskId = await seedTask(w, 'Product video, 30 seconds');
    const { result } = await send(w, 'Approve the storyboard', { targetTaskId: taskId, channel: 'card' });
    expect(result).toMatchObject({ deliveredTo: taskId, decision: { method: 'deterministic' } });
    expect(w.model.neverCalled).toBe(true);
  });

  it('an archived task gets a clear question in Main (reopen, start new) and nothing is delivered', async () => {
    const taskId = await seedTask(w, 'Autumn menu design', { then: [{ type: 'ArchiveTask', by: meta.actor }] });
    const before = await w.h.eventsOf(streams.task(taskId));
    const { message, result } = await send(w, 'Add a dessert page', { targetTaskId: taskId });
    expect(result).toMatchObject({
      deliveredTo: null,
      decision: { outcome: 'clarify', reason: 'target task is archived' },
    });
    const card = await cardOf(w, message.metadata.eventId);
    expect(card).toMatchObject({ reason: 'target_unavailable', language: 'en' });
    expect(card!.question).toContain('Autumn menu design');
    expect(card!.options.map((o) => o.action)).toEqual(expect.arrayContaining(['reopen', 'new']));
    expect(await w.h.eventsOf(streams.task(taskId))).toHaveLength(before.length);
    expect(w.model.neverCalled).toBe(true);
  });

  it('a deleted artefact gets a clear question in Main and nothing is delivered', async () => {
    const taskId = await seedTask(w, 'Logo for the bakery');
    const ref = `artifact:${randomUUID()}`;
    w.bindings.delete(WORKSPACE, ref, taskId);
    const before = await w.h.eventsOf(streams.task(taskId));
    const { message, result } = await send(w, 'Use this one again', { artifactRef: ref });
    expect(result).toMatchObject({
      deliveredTo: null,
      decision: { outcome: 'clarify', reason: 'target artefact is deleted' },
    });
    expect((await cardOf(w, message.metadata.eventId))?.reason).toBe('target_unavailable');
    expect(await w.h.eventsOf(streams.task(taskId))).toHaveLength(before.length);
    expect(w.model.neverCalled).toBe(true);
  });

  it('a bound artefact routes to its task without the model', async () => {
    const taskId = await seedTask(w, 'Logo for the bakery');
    const ref = `artifact:${randomUUID()}@2`;
    w.bindings.bind(WORKSPACE, ref, taskId);
    const { result } = await send(w, 'Warmer colours on this', { artifactRef: ref });
    expect(result).toMatchObject({
      deliveredTo: taskId,
      decision: { outcome: 'existing', candidates: [{ taskId, score: 1, source: 'artifact' }] },
    });
    expect(w.model.neverCalled).toBe(true);
  });

  it('a paused task takes the message into its inbox and Main says it is paused', async () => {
    const taskId = await seedTask(w, 'Wedding invitations', { then: [{ type: 'PauseTask', by: meta.actor }] });
    const { message, result } = await send(w, 'Use gold ink', { targetTaskId: taskId });
    expect(result.deliveredTo).toBe(taskId);
    const reply = (await mainLine(w)).find(
      (e) => e.type === 'MainReplied' && dataOf(e).messageId === message.metadata.eventId,
    );
    expect(String(reply && dataOf(reply).text)).toContain('Wedding invitations');
  });

  it('"hello" gets a reply in Main and creates no task', async () => {
    w.model.push({ reply: { json: answer({ outcome: 'main', reply: 'Hello! What shall we make?' }) } });
    const { message, result } = await send(w, 'hello');
    expect(result).toMatchObject({
      deliveredTo: null,
      decision: { outcome: 'main', taskId: null, method: 'semantic' },
    });
    const replies = (await mainLine(w)).filter((e) => e.type === 'MainReplied');
    expect(replies.map((e) => e.data)).toEqual([
      expect.objectContaining({
        messageId: message.metadata.eventId,
        text: 'Hello! What shall we make?',
        language: 'en',
      }),
    ]);
    expect((await w.h.store.readAll()).filter((e) => e.type === 'TaskCreated')).toEqual([]);
  });

  it('two similar poster tasks and "change the last set a bit": the margin guard asks even though the model guessed one', async () => {
    await seedTask(w, 'Poster set for the spring fair', { minutesAgo: 30 });
    await seedTask(w, 'Poster set for the summer fair', { minutesAgo: 20 });
    w.model.push({
      reply: (request) => ({
        json: answer({
          outcome: 'existing',
          taskRef: refOfGoal(request, 'summer'),
          scores: [{ ref: refOfGoal(request, 'summer'), score: 0.9 }],
        }),
      }),
    });
    const { message, result } = await send(w, 'change the last set a bit');
    expect(result).toMatchObject({ deliveredTo: null, decision: { outcome: 'clarify' } });
    expect(result.decision.reason).toMatch(/ambiguity margin/);
    const card = await cardOf(w, message.metadata.eventId);
    expect(card?.reason).toBe('ambiguous');
    expect(card!.options.filter((o) => o.action === 'route')).toHaveLength(2);
  });

  it('the model choosing a task that stands out clearly routes there', async () => {
    await seedTask(w, 'Poster set for the spring fair');
    const video = await seedTask(w, 'Launch video for the new bike');
    w.model.push({
      reply: (request) => ({ json: answer({ outcome: 'existing', taskRef: refOfGoal(request, 'bike') }) }),
    });
    const { result } = await send(w, 'make the bike video shorter');
    expect(result).toMatchObject({ deliveredTo: video, decision: { outcome: 'existing', method: 'semantic' } });
    expect(result.decision.promptRef).toBeUndefined(); // no BlobStore in this harness
  });

  it('a goal that duplicates an active task is caught by the duplicate check even when the model says "new"', async () => {
    const existing = await seedTask(w, 'Design a logo for the Lisbon bakery');
    w.model.push(
      { reply: { json: answer({ outcome: 'new', goal: 'Design a logo for the Lisbon bakery' }) } },
      { reply: { json: { verdict: 'new', taskRef: null } } },
    );
    const { message, result } = await send(w, 'Design a logo for the Lisbon bakery');
    expect(result).toMatchObject({ deliveredTo: null, decision: { outcome: 'clarify' } });
    expect(result.decision.duplicateCheck).toEqual({
      candidates: [{ taskId: existing, score: 1 }],
      verdict: 'ask',
    });
    expect((await cardOf(w, message.metadata.eventId))?.reason).toBe('duplicate');
    expect((await w.h.store.readAll()).filter((e) => e.type === 'TaskCreated')).toHaveLength(1);
  });

  it('the duplicate check reuses the active task when the model says "reuse", and records its candidates', async () => {
    const existing = await seedTask(w, 'Translate the brochure into French');
    w.model.push(
      { reply: { json: answer({ outcome: 'new', goal: 'French version of the brochure' }) } },
      { reply: (request) => ({ json: { verdict: 'reuse', taskRef: refOfGoal(request, 'brochure') } }) },
    );
    const { result } = await send(w, 'Translate the brochure into French, please');
    expect(result).toMatchObject({
      deliveredTo: existing,
      decision: { outcome: 'existing', duplicateCheck: { verdict: 'reuse' } },
    });
  });

  it('a clarification answered by card routes the asked message to the chosen task, and the card is resolved once', async () => {
    const spring = await seedTask(w, 'Poster set for the spring fair', { minutesAgo: 30 });
    await seedTask(w, 'Poster set for the summer fair', { minutesAgo: 20 });
    w.model.push({ reply: { json: answer({ outcome: 'clarify', question: 'Which poster set?' }) } });
    const asked = await send(w, 'make the set warmer');
    const card = await cardOf(w, asked.message.metadata.eventId);
    const option = card!.options.find((o) => o.taskId === spring)!;

    const chosen = await send(w, option.label, { channel: 'card', answersCardId: card!.cardId });
    expect(chosen.result).toMatchObject({
      deliveredTo: spring,
      decision: { outcome: 'existing', method: 'deterministic', answersCardId: card!.cardId },
    });
    expect((await inboxOf(w, spring)).map((e) => dataOf(e).messageId)).toEqual([asked.message.metadata.eventId]);

    // A second answer to the same card (the API refuses it; here it reaches the router anyway).
    w.model.push({ reply: { json: answer({ outcome: 'main', reply: 'Noted.' }) } });
    const again = await send(w, option.label, { channel: 'card', answersCardId: card!.cardId });
    expect(again.result.decision.answersCardId).toBeUndefined();
    const answers = (await mainLine(w)).filter((e) => e.type === 'ClarificationAnswered');
    expect(answers).toHaveLength(1);
    expect((await inboxOf(w, spring)).map((e) => dataOf(e).messageId)).toEqual([asked.message.metadata.eventId]);
    expect(w.model.calls).toHaveLength(2);
  });

  it('"start a new one" on a card creates a new task from the asked message', async () => {
    await seedTask(w, 'Poster set for the spring fair');
    await seedTask(w, 'Poster set for the summer fair');
    w.model.push({ reply: { json: answer({ outcome: 'clarify', question: 'Which one?' }) } });
    const asked = await send(w, 'a poster set for the winter fair too');
    const card = await cardOf(w, asked.message.metadata.eventId);
    const fresh = card!.options.find((o) => o.action === 'new')!;
    const chosen = await send(w, fresh.label, { channel: 'card', answersCardId: card!.cardId });
    expect(chosen.result.decision).toMatchObject({
      outcome: 'new',
      taskId: taskIdFor(chosen.message.metadata.eventId),
    });
    const created = (await w.h.eventsOf(streams.task(chosen.result.decision.taskId!)))[0];
    expect(created.data).toMatchObject({
      goal: 'a poster set for the winter fair too',
      originMessageId: asked.message.metadata.eventId,
    });
  });

  it('a crash between RoutingDecided and the delivery leaves exactly one inbox item after recovery', async () => {
    const taskId = await seedTask(w, 'Banner for the book launch');
    w.model.push({
      reply: (request) => ({ json: answer({ outcome: 'existing', taskRef: refOfGoal(request, 'Banner') }) }),
    });
    const message = await w.h.receive('the banner needs the date', { clientMessageId: 'crash-1' });
    const handler = w.app.get(RouteUserMessageHandler);
    // The first run records the decision and dies before the delivery.
    const first = await handler.recordRouting(message);
    expect(first).toMatchObject({ written: true, decision: { outcome: 'existing', taskId } });
    expect(await inboxOf(w, taskId)).toHaveLength(0);
    // Redelivered twice: the decision on record is acted on; the model is not asked again.
    await handler.execute(new RouteUserMessage(message));
    await handler.execute(new RouteUserMessage(message));
    expect((await inboxOf(w, taskId)).map((e) => dataOf(e).itemId)).toEqual([message.metadata.eventId]);
    expect(w.model.calls).toHaveLength(1);
  });

  it('a follow-up 100 ms after a new task was created routes to it while the index has not caught up', async () => {
    await seedTask(w, 'Poster set for the spring fair');
    w.model.push({ reply: { json: answer({ outcome: 'new', goal: 'A flyer for the jazz night' }) } });
    const first = await send(w, 'A flyer for the jazz night');
    const created = first.result.deliveredTo!;
    expect(first.result.decision.outcome).toBe('new');
    await new Promise((resolve) => setTimeout(resolve, 100));
    // The fake index was never told about the new task: only the main line's decision knows it.
    w.model.push({
      reply: (request) => {
        const recent = promptCandidates(request).find((c) => c.source === 'recent_decision');
        return { json: answer({ outcome: 'existing', taskRef: recent?.ref ?? null }) };
      },
    });
    const followUp = await send(w, 'make it blue');
    expect(followUp.result).toMatchObject({ deliveredTo: created, decision: { outcome: 'existing' } });
    expect(followUp.result.decision.candidates).toContainEqual(
      expect.objectContaining({ taskId: created, source: 'recent_decision' }),
    );
  });

  it.each([
    ['幫我做一張海報', 'zh-Hant'],
    ['帮我做一张海报', 'zh-Hans'],
  ])('the person’s script is kept: %s is answered in %s', async (text, script) => {
    // An unavailable model: the router's own question must be in the person's script.
    w.model.push({ fail: new ModelTimeoutError('deadline', 2_000) });
    const language = script;
    const { message } = await send(w, text, { language });
    const card = await cardOf(w, message.metadata.eventId);
    expect(card?.language).toBe(script);
    expect(chineseScript(card!.question + card!.options.map((o) => o.label).join(''))).toBe(script);
  });

  it('an invalid structured answer is retried once and then becomes a clarification', async () => {
    await seedTask(w, 'Poster set for the spring fair');
    w.model.push({ reply: { text: 'not json' } }, { reply: { json: { outcome: 'maybe' } } });
    const { message, result } = await send(w, 'do the thing for the fair');
    expect(w.model.calls).toHaveLength(2);
    expect(result).toMatchObject({
      deliveredTo: null,
      decision: { outcome: 'clarify', modelStep: { attempts: 2, failure: 'MODEL_INVALID_OUTPUT' } },
    });
    expect((await cardOf(w, message.metadata.eventId))?.reason).toBe('invalid_answer');
  });

  it('a model timeout becomes a clarification and the message is kept', async () => {
    w.model.push({ timeout: 2_000 });
    const { message, result } = await send(w, 'start the storyboard');
    expect(result).toMatchObject({
      deliveredTo: null,
      decision: { outcome: 'clarify', modelStep: { failure: 'MODEL_TIMEOUT' } },
    });
    expect((await cardOf(w, message.metadata.eventId))?.reason).toBe('model_unavailable');
    expect((await mainLine(w)).some((e) => e.metadata.eventId === message.metadata.eventId)).toBe(true);
  });

  it('"yes, approved" in Main to a task with an open approval checkpoint is delivered as a message and resolves nothing', async () => {
    const turnId = randomUUID();
    const checkpointId = randomUUID();
    const taskId = await seedTask(w, 'Order 200 printed posters', {
      then: [
        { type: 'OpenTurn', turnId, reason: 'message' },
        {
          type: 'OpenCheckpoint',
          checkpointId,
          turnId,
          kind: 'approval',
          callId: `${turnId}:1:0`,
          question: 'Pay 80 EUR?',
        },
      ],
    });
    w.model.push({
      reply: (request) => ({ json: answer({ outcome: 'existing', taskRef: refOfGoal(request, 'posters') }) }),
    });
    const { result } = await send(w, 'yes, approved');
    expect(result.deliveredTo).toBe(taskId);
    const events = await w.h.eventsOf(streams.task(taskId));
    expect(events.filter((e) => e.type === 'CheckpointResolved')).toEqual([]);
    expect(events.at(-1)?.type).toBe('MessageDeliveredToInbox');
  });

  it('a lightweight task the person keeps revising is upgraded to persistent', async () => {
    const taskId = await seedTask(w, 'One image of a red fox', { kind: 'lightweight' });
    for (let i = 0; i < 2; i += 1)
      w.model.push({
        reply: (request) => ({ json: answer({ outcome: 'existing', taskRef: refOfGoal(request, 'fox') }) }),
      });
    await send(w, 'the fox image, but at night');
    const second = await send(w, 'the fox image, now with snow');
    expect(second.result.deliveredTo).toBe(taskId);
    const upgraded = (await w.h.eventsOf(streams.task(taskId))).filter((e) => e.type === 'TaskUpgraded');
    expect(upgraded).toHaveLength(1);
  });
});

// The same artefact branches with the real bindings: artefact events appended to the store (as
// the artefact command service writes them), projected by the workspace projection, looked up by
// ProjectedArtifactBindings. The fake-bindings tests above state the binding; these derive it.
describe('router artefact branches against the workspace projection (real artefact events)', () => {
  let h: RouterHarness;
  let app: INestApplicationContext;
  let model: ScriptedModelProvider;
  let projector: WorkspaceTestProjector;
  let artifacts: ArtifactEventWriter;
  let w: World;
  const person = { kind: 'person' as const, userId: 'u1' };

  beforeEach(async () => {
    h = await RouterHarness.open();
    model = new ScriptedModelProvider();
    projector = new WorkspaceTestProjector(h.store, { writer: null });
    artifacts = new ArtifactEventWriter(h.store, WORKSPACE);
    const bindings = new ProjectedArtifactBindings(projector.readModel);
    const candidates = new FakeRoutingCandidates();
    app = await h.startRouterApp({ model, candidates, bindings, timeoutMs: 2_000 });
    w = { h, app, model, candidates, bindings: new FakeArtifactBindings() };
  });
  afterEach(async () => {
    await app.close();
    await projector.close();
    await h.close();
  });

  it('an artefact a task created routes to that task without the model', async () => {
    const taskId = await seedTask(w, 'Storyboard for the ad');
    const artifactId = await artifacts.createDocument({
      by: { kind: 'agent', taskId, callId: `${randomUUID()}:1:0` },
      taskId,
    });
    await projector.catchUp();
    const { result } = await send(w, 'Shorter scene 2', { artifactRef: `artifact:${artifactId}@1` });
    expect(result).toMatchObject({
      deliveredTo: taskId,
      decision: { outcome: 'existing', candidates: [{ taskId, score: 1, source: 'artifact' }] },
    });
    expect(model.neverCalled).toBe(true);
  });

  it('an artefact the person made and a task referenced routes to the referencing task', async () => {
    const taskId = await seedTask(w, 'Logo for the bakery');
    const artifactId = await artifacts.createFlow({ nodeIds: ['A', 'B'], by: person });
    await artifacts.reference(artifactId, taskId, person);
    await projector.catchUp();
    const { result } = await send(w, 'Tweak node A', { artifactRef: `artifact:${artifactId}#A` });
    expect(result).toMatchObject({ deliveredTo: taskId, decision: { outcome: 'existing' } });
    expect(model.neverCalled).toBe(true);
  });

  it('a deleted artefact gets a clear question in Main and nothing is delivered', async () => {
    const taskId = await seedTask(w, 'Logo for the bakery');
    const artifactId = await artifacts.createDocument({ by: person, taskId });
    await artifacts.deleteConfirmed(artifactId, 'u1');
    await projector.catchUp();
    const before = await h.eventsOf(streams.task(taskId));
    const { message, result } = await send(w, 'Use this one again', { artifactRef: `artifact:${artifactId}` });
    expect(result).toMatchObject({
      deliveredTo: null,
      decision: { outcome: 'clarify', reason: 'target artefact is deleted' },
    });
    expect((await cardOf(w, message.metadata.eventId))?.reason).toBe('target_unavailable');
    expect(await h.eventsOf(streams.task(taskId))).toHaveLength(before.length);
    expect(model.neverCalled).toBe(true);
  });

  it('an artefact of another workspace is not found, never routed to its task', async () => {
    const other = new ArtifactEventWriter(h.store, 'ws_other');
    const artifactId = await other.createDocument({ by: person, taskId: randomUUID() });
    await projector.catchUp();
    const { result } = await send(w, 'Edit this', { artifactRef: `artifact:${artifactId}` });
    expect(result).toMatchObject({
      deliveredTo: null,
      decision: { outcome: 'clarify', reason: 'target artefact not found' },
    });
    expect(model.neverCalled).toBe(true);
  });
});

describe('router with the offline model', () => {
  let w: World;
  beforeAll(async () => {
    const h = await RouterHarness.open();
    const candidates = new FakeRoutingCandidates();
    const bindings = new FakeArtifactBindings();
    const model = new ScriptedModelProvider();
    const app = await h.startRouterApp({ model: new OfflineModelProvider(), candidates, bindings });
    w = { h, app, model, candidates, bindings };
  });
  afterAll(async () => {
    await w.app.close();
    await w.h.close();
  });

  it('answers a greeting in Main without a task', async () => {
    const { result } = await send(w, 'hi there');
    expect(result.decision.outcome).toBe('main');
    expect((await w.h.store.readAll()).filter((e) => e.type === 'TaskCreated')).toEqual([]);
  });
});
