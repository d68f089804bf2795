import { canonicalJson, streams } from '@lomo/contracts';
import { PromptArchive } from '@lomo/runtime';
import { UnknownTargetError, WorkspaceForbiddenError } from '../errors';
import { callerOf, InspectionWorld, tellTaskStory, type TaskStory } from '../testing';
import { isPurged, type InspectedStep, type TaskInspection } from './inspection.types';
import { comparePositions } from '../positions';
import { inspectTask, inspectTurn } from './task-inspection';

// inspectTask / inspectTurn on a real SQLite log: a task told by tellTaskStory (routing, a paid
// call with its money, a lease takeover, a question card, a forgotten message) and read back.

const operator = callerOf('operator', 'ops', 'root');

describe('inspectTask', () => {
  let world: InspectionWorld;
  let story: TaskStory;
  let inspection: TaskInspection;
  const stepOf = (turn: number, step: number): InspectedStep =>
    inspection.steps.find((s) => s.turnId === story.turns[turn - 1] && s.step === step)!;

  beforeEach(async () => {
    world = InspectionWorld.open();
    story = await tellTaskStory(world);
    inspection = await inspectTask(world.sources, operator, story.taskId, { prompts: true });
  });
  afterEach(() => world.close());

  it('lists every event of the task, its turns, its routing, its job and the job’s money, in global order', async () => {
    const expected = [
      ...(await world.events.readStream(streams.task(story.taskId))),
      ...(await Promise.all(story.turns.map((t) => world.events.readStream(streams.turn(t))))).flat(),
      ...(await world.events.readStream(streams.generation(story.jobId))),
      ...(await world.events.readStream(streams.account('ws1'))),
      ...(await world.events.readStream(streams.main('ws1', 'u1'))).filter((e) => e.type === 'RoutingDecided'),
    ];
    expect(inspection.timeline.map((e) => `${e.streamId}@${e.revision}`).sort()).toEqual(
      expected.map((e) => `${e.metadata.streamId}@${e.metadata.revision}`).sort(),
    );
    const positions = inspection.timeline.map((e) => e.position);
    for (let i = 1; i < positions.length; i += 1)
      expect(comparePositions(positions[i - 1], positions[i])).toBeLessThan(0);
    const step = inspection.timeline.find((e) => e.type === 'ModelStepCommitted')!;
    expect(step).toMatchObject({ kind: 'step', actor: 'agent', generation: 1 });
    expect(inspection.timeline.find((e) => e.type === 'JobCharged')).toMatchObject({ kind: 'money' });
  });

  it('shows the routing decision, the inbox with the step that consumed each item, checkpoints and continuations', () => {
    expect(inspection.goal).toBe(story.goal);
    expect(inspection.routing).toMatchObject({
      messageId: story.messages.origin,
      outcome: 'new',
      method: 'deterministic',
    });
    const origin = inspection.inbox.find((i) => i.itemId === story.messages.origin)!;
    expect(origin).toMatchObject({
      text: story.goal,
      from: 'u1',
      state: 'consumed',
      consumedBy: `${story.turns[0]}#1`,
    });
    expect(stepOf(1, 1).consumedInboxItems).toEqual([origin]);
    expect(inspection.checkpoints).toEqual([
      expect.objectContaining({
        checkpointId: story.checkpointId,
        kind: 'question',
        resolution: expect.objectContaining({ decision: 'answer' }),
      }),
    ]);
    expect(inspection.continuations).toEqual([
      expect.objectContaining({ turnId: story.turns[0], decision: 'await_person', reason: 'no_plan' }),
    ]);
    expect(inspection.turns.map((t) => t.status)).toEqual(['completed', 'completed', 'completed']);
  });

  it('shows each tool call with its intent and result, and the paid job with what it was charged', () => {
    const step = stepOf(1, 1);
    expect(step.toolCallIntents).toEqual([
      { callId: story.callId, tool: 'image.generate', arguments: { prompt: 'a red fox' } },
    ]);
    expect(step.ledger).toEqual([
      expect.objectContaining({ callId: story.callId, status: 'completed', result: { jobId: story.jobId } }),
    ]);
    expect(step.ledger[0].startedAt).not.toBeNull();
    expect(step.ledger[0].finishedAt).not.toBeNull();
    expect(inspection.generationJobs).toEqual([
      expect.objectContaining({
        jobId: story.jobId,
        callId: story.callId,
        provider: 'simulated',
        status: 'requested',
        chargedMinor: 400,
        refundedMinor: 0,
        currency: 'USD',
      }),
    ]);
  });

  it('shows a stored prompt exactly as the archive returns it, by layer', async () => {
    const loaded = (await new PromptArchive(world.blobs).load(story.prompts.turn1step1))!;
    const prompt = stepOf(1, 1).prompt!;
    expect(prompt.canonicalJson).toBe(canonicalJson({ messages: loaded.messages, tools: loaded.tools }));
    expect(prompt.tools).toEqual(['image.generate']);
    expect(prompt.layers).toEqual(
      loaded.layers.map((l) => ({ layer: l.layer, tokens: l.tokens, messages: loaded.messages.slice(l.start, l.end) })),
    );
    const clean = (await new PromptArchive(world.blobs).load(story.prompts.turn3step1))!;
    expect(stepOf(3, 1).prompt!.canonicalJson).toBe(canonicalJson({ messages: clean.messages, tools: clean.tools }));
  });

  it('loads no prompt unless asked', async () => {
    const plain = await inspectTask(world.sources, operator, story.taskId);
    expect(plain.steps.every((s) => s.prompt === undefined && s.promptRef !== undefined)).toBe(true);
  });

  it('never shows forgotten content: the message, the step that relied on it and prompts built while it was in context are purged', () => {
    expect(JSON.stringify(inspection)).not.toContain(story.secret);
    expect(JSON.stringify(inspection)).not.toContain('4711');
    const item = inspection.inbox.find((i) => i.itemId === story.messages.forgotten)!;
    expect(item.text).toEqual({ purged: true, reason: 'forgotten' });
    const excluded = stepOf(2, 1);
    expect(excluded.excluded).toBe(true);
    expect(isPurged(excluded.reply)).toBe(true);
    expect(isPurged(excluded.prompt!.canonicalJson)).toBe(true);
    const builtWhile = stepOf(2, 2);
    expect(builtWhile.excluded).toBe(false);
    expect(builtWhile.reply).toBe('Anything else?');
    expect(builtWhile.prompt!.canonicalJson).toEqual({
      purged: true,
      reason: 'built while forgotten content was in the context',
    });
    expect(isPurged(builtWhile.prompt!.layers)).toBe(true);
    expect(isPurged(stepOf(3, 1).prompt!.canonicalJson)).toBe(false);
  });

  it('purges the goal when the message that created the task was forgotten', async () => {
    await world.append(streams.task(story.taskId), 'ContextExcluded', {
      forgettingId: '6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f',
      messageIds: [story.messages.origin],
      steps: [{ turnId: story.turns[0], step: 1 }],
    });
    const after = await inspectTask(world.sources, operator, story.taskId, { prompts: true });
    expect(JSON.stringify(after)).not.toContain(story.goal);
    expect(after.goal).toEqual({ purged: true, reason: 'forgotten' });
    const step = after.steps.find((s) => s.turnId === story.turns[0])!;
    expect(step.toolCallIntents[0].arguments).toEqual({ purged: true, reason: 'forgotten' });
    expect(step.ledger[0].result).toEqual({ purged: true, reason: 'forgotten' });
  });

  it('shows a prompt whose blob was deleted as purged', async () => {
    await world.blobs.delete(story.prompts.turn1step1.hash);
    const after = await inspectTask(world.sources, operator, story.taskId, { prompts: true });
    const step = after.steps.find((s) => s.turnId === story.turns[0] && s.step === 1)!;
    expect(step.prompt!.canonicalJson).toEqual({ purged: true, reason: 'blob deleted' });
  });

  it('shows the lease takeover and the generation it fenced off, and no stale write', () => {
    const [turn1, turn2] = inspection.turns;
    expect(turn1.leases.map((l) => [l.workerId, l.generation, l.takeover])).toEqual([
      ['worker-a', 1, false],
      ['worker-b', 2, true],
    ]);
    expect(turn1.fencedGenerations).toEqual([1]);
    expect(turn1.staleWritesAccepted).toEqual([]);
    expect(turn2.fencedGenerations).toEqual([]);
  });

  it('reports a write of a fenced generation that got in (the invariant check is not vacuous)', async () => {
    await world.append(
      streams.turn(story.turns[0]),
      'ToolCallOutcomeUnknown',
      { callId: story.callId, reason: 'worker_lost' },
      { actor: { kind: 'agent' }, generation: 1 },
    );
    const turn = await inspectTurn(world.sources, operator, story.turns[0]);
    expect(turn.staleWritesAccepted).toEqual([
      expect.objectContaining({
        streamId: streams.turn(story.turns[0]),
        type: 'ToolCallOutcomeUnknown',
        generation: 1,
        leaseGeneration: 2,
      }),
    ]);
  });

  it('refuses an unknown task and another workspace’s task for a person; a person of the workspace reads it', async () => {
    await expect(inspectTask(world.sources, operator, '0b9c6f3e-8a51-4d7e-9a35-2f7c1d4e5a60')).rejects.toBeInstanceOf(
      UnknownTargetError,
    );
    await expect(inspectTask(world.sources, operator, 'not a task id')).rejects.toBeInstanceOf(UnknownTargetError);
    await expect(inspectTask(world.sources, callerOf('person', 'ws2', 'u1'), story.taskId)).rejects.toBeInstanceOf(
      WorkspaceForbiddenError,
    );
    const colleague = await inspectTask(world.sources, callerOf('person', 'ws1', 'u2'), story.taskId);
    expect(colleague.turns).toHaveLength(3);
    // The routing decision is on u1's private main line.
    expect(colleague.routing).toBeNull();
  });
});

describe('inspectTask routing of an older task', () => {
  let world: InspectionWorld;
  beforeEach(() => {
    world = InspectionWorld.open();
  });
  afterEach(() => world.close());

  it('finds the routing decision on the workspace’s main lines when the delivery did not name its sender', async () => {
    const taskId = '0b9c6f3e-8a51-4d7e-9a35-2f7c1d4e5a60';
    const messageId = '7d2a9c1e-3f4b-4a5c-9d6e-1f2a3b4c5d6e';
    const router = { kind: 'system', component: 'router' } as const;
    await world.append(
      streams.main('ws1', 'u3'),
      'RoutingDecided',
      {
        messageId: '8e3b0d2f-4a5c-4b6d-8e7f-2a3b4c5d6e7f',
        outcome: 'main',
        taskId: null,
        method: 'deterministic',
        candidates: [],
      },
      { actor: router },
    );
    await world.append(
      streams.main('ws1', 'u3'),
      'RoutingDecided',
      {
        messageId,
        outcome: 'new',
        taskId,
        method: 'semantic',
        candidates: [{ taskId, score: 0.4, source: 'retrieval' }],
      },
      { actor: router },
    );
    await world.append(
      streams.task(taskId),
      'TaskCreated',
      { taskId, kind: 'lightweight', goal: 'A haiku', language: 'en', originMessageId: messageId },
      { actor: router },
    );
    await world.append(
      streams.task(taskId),
      'MessageDeliveredToInbox',
      { itemId: messageId, messageId, text: 'A haiku', language: 'en' },
      { actor: router },
    );

    const inspection = await inspectTask(world.sources, operator, taskId);
    expect(inspection.routing).toMatchObject({ messageId, outcome: 'new', method: 'semantic' });
    expect(inspection.inbox).toEqual([expect.objectContaining({ itemId: messageId, from: null, state: 'pending' })]);
    // A person who is not the sender sees no decision of another person's main line.
    expect((await inspectTask(world.sources, callerOf('person', 'ws1', 'u1'), taskId)).routing).toBeNull();
  });
});

describe('inspectTurn', () => {
  let world: InspectionWorld;
  let story: TaskStory;

  beforeEach(async () => {
    world = InspectionWorld.open();
    story = await tellTaskStory(world);
  });
  afterEach(() => world.close());

  it('is the turn as inspectTask shows it, with the task-stream events about it in its timeline', async () => {
    const fromTask = (await inspectTask(world.sources, operator, story.taskId, { prompts: true })).turns[1];
    const turn = await inspectTurn(world.sources, operator, story.turns[1], { prompts: true });
    expect(turn).toEqual(fromTask);
    expect(turn.timeline.map((e) => e.type)).toEqual(
      expect.arrayContaining([
        'TurnOpened',
        'TurnStarted',
        'TurnLeased',
        'InboxItemsClaimed',
        'ModelStepCommitted',
        'TurnClosed',
      ]),
    );
    expect(JSON.stringify(turn)).not.toContain(story.secret);
  });

  it('refuses an unknown turn and another workspace for a person', async () => {
    await expect(inspectTurn(world.sources, operator, '0b9c6f3e-8a51-4d7e-9a35-2f7c1d4e5a60')).rejects.toBeInstanceOf(
      UnknownTargetError,
    );
    await expect(inspectTurn(world.sources, callerOf('person', 'ws2'), story.turns[0])).rejects.toBeInstanceOf(
      WorkspaceForbiddenError,
    );
  });
});
