import { randomUUID } from 'node:crypto';
import { waitFor } from '@lomo/bus/testing';
import { streams, type EventEnvelope } from '@lomo/contracts';
import type { EventStore } from '@lomo/eventstore';
import { approvalCheckpointIdFor, generationJobId, orderHash } from '@lomo/generation';
import { GenerationHarness, budgetOf, limitsOf, person } from '@lomo/generation/testing';
import { ScriptedModelProvider, type CompletionRequest, type ScriptedReply, type ScriptedStep } from '@lomo/llm';
import { checkpointIdFor, createPlanTools, resolveCheckpoint } from '@lomo/runtime';
import { HARNESS_USER, HARNESS_WORKSPACE, ScriptedFaults, type HarnessWorker } from '@lomo/runtime/testing';
import { createWorkspaceTools, type ArtifactCommandService, type WorkspaceReadModel } from '@lomo/workspace';
import { late } from './support/late';
import { stageTool } from './support/stage-tool';
import { ofType } from './support/turn-events';

// Article §8's autonomy, end to end through the real worker, the real generation service on the
// in-process simulated upstream, real SQLite: a scripted model that ends its turn after every
// stage ("stop" with a summary), the runtime's continuation decisions, the person's cards (review,
// the plan's budget, a paid call's approval), the account's authorizations. Each scenario counts
// the person's "continue" prompts, unnecessary confirmations (a card for something already
// approved or within the budget and autonomy level) and duplicate generations.

const ids = { uuid: () => randomUUID() };
const BRIEF = 'A 12 second clip of a lighthouse keeper climbing the stairs at dusk';

const lastTool = (request: CompletionRequest) =>
  [...request.messages].reverse().find((m) => m.role === 'tool')?.content ?? '';
const artifactIn = (text: string) => /"artifactId":"([0-9a-f-]{36})"/.exec(text)?.[1] ?? 'missing';
/** The job ids of every video.generate result the model was shown, once each. */
const jobIdsIn = (request: CompletionRequest) => {
  const found = new Set<string>();
  for (const m of request.messages)
    if (m.role === 'tool') for (const match of m.content.matchAll(/"jobId":"([0-9a-f-]{36})"/g)) found.add(match[1]);
  return [...found];
};

const PLAN = {
  items: [
    { itemId: 'script', title: 'Script', output: { kind: 'artifact' } },
    {
      itemId: 'storyboard',
      title: 'Storyboard',
      dependsOn: ['script'],
      needsConfirmation: true,
      output: { kind: 'artifact' },
    },
    { itemId: 'shots', title: 'Shots', dependsOn: ['storyboard'], output: { kind: 'media', media: 'video', count: 3 } },
  ],
};

/** A document stage in one turn: write it, mark it done with its version, end the turn with a summary. */
const documentStage = (itemId: string, title: string): ScriptedStep[] => [
  {
    label: `${itemId}: write`,
    reply: { toolCalls: [{ name: 'stage.write', arguments: { title, text: `${title} of the lighthouse clip.` } }] },
  },
  {
    label: `${itemId}: done`,
    reply: (request): ScriptedReply => ({
      toolCalls: [
        {
          name: 'checklist.update',
          arguments: {
            itemId,
            status: 'done',
            evidence: { kind: 'artifact_version', artifactId: artifactIn(lastTool(request)), version: 1 },
          },
        },
      ],
    }),
  },
  { label: `${itemId}: summary`, reply: { text: `${title} is ready.` } },
];

const shot = (n: number, seconds = 4) => ({
  name: 'video.generate',
  arguments: { prompt: `Shot ${n}: the keeper on the stairs, the lamp coming on`, durationSeconds: seconds },
});

/** The shots stage: three video calls in one step, done with all three jobs, a summary. */
const shotsStage = (calls = [shot(1), shot(2), shot(3)]): ScriptedStep[] => [
  { label: 'shots: order', reply: { toolCalls: calls } },
  {
    label: 'shots: done',
    reply: (request): ScriptedReply => ({
      toolCalls: [
        {
          name: 'checklist.update',
          arguments: { itemId: 'shots', status: 'done', evidence: { kind: 'jobs', jobIds: jobIdsIn(request) } },
        },
      ],
    }),
  },
  { label: 'shots: summary', reply: { text: 'The three shots are ready.' } },
];

const firstTurn: ScriptedStep[] = [
  { label: 'plan', reply: { toolCalls: [{ name: 'checklist.plan', arguments: PLAN }] } },
  ...documentStage('script', 'Script'),
];

describe('autonomy: a plan, its budget, its cards and the runtime going on by itself', () => {
  let h: GenerationHarness;
  let executor: HarnessWorker;

  beforeEach(async () => {
    const wired: { store?: EventStore; artifacts?: ArtifactCommandService } = {};
    h = await GenerationHarness.open({
      label: 'autonomy',
      upstream: { config: { latencyMs: 1_000, progressTicks: 1 } },
      extraTools: [
        ...createPlanTools({ store: late(() => wired.store), ids }),
        stageTool(late(() => wired.artifacts)),
        // The workspace's real delete (irreversible): nothing else of its tool set is used here.
        ...createWorkspaceTools({
          commands: late(() => wired.artifacts),
          reader: late(() => wired.artifacts),
          readModel: late<WorkspaceReadModel>(() => undefined),
          checkpointIdFor,
        }).filter((t) => t.name === 'artifact.delete'),
      ],
    });
    wired.store = h.runtime.store;
    wired.artifacts = h.artifacts;
  });
  afterEach(async () => h.close());

  const task = (taskId: string) => h.read(streams.task(taskId));
  const meta = { workspaceId: HARNESS_WORKSPACE, correlationId: 'money', causationId: null, actor: person };
  const cards = (events: readonly EventEnvelope[]) =>
    ofType<{
      checkpointId: string;
      kind: string;
      itemId?: string;
      callId?: string;
      callQuote?: { amountMinor: number };
      planQuote?: { amountMinor: number };
    }>(events, 'CheckpointOpened');

  async function start(model: ScriptedModelProvider) {
    executor = h.runtime.worker('executor-1', model);
    await h.runtime.consumeWakeUps(executor);
  }

  /** The person decides a card by its id; the generation service hears it as its bus consumer does. */
  async function decide(
    taskId: string,
    checkpointId: string,
    decision: 'approve' | 'reject' = 'approve',
    callId?: string,
  ) {
    await resolveCheckpoint(h.runtime.commandDeps(), {
      taskId,
      checkpointId,
      decision,
      resolvedBy: HARNESS_USER,
      ...(callId !== undefined ? { callId } : {}),
    });
    await h.service.onCheckpointResolved(HARNESS_WORKSPACE, taskId, checkpointId);
    await h.settle();
  }

  /** Lets the simulated upstream make what was ordered, until the task's last decision says `until`. */
  async function runUntil(taskId: string, until: (events: readonly EventEnvelope[]) => boolean, label: string) {
    for (let round = 0; round < 60 && !until(await task(taskId)); round += 1) {
      await h.advance(1_000);
      await executor.worker.idle();
    }
    await waitFor(async () => until(await task(taskId)), label, 5_000);
  }

  const lastDecision = (events: readonly EventEnvelope[]) =>
    ofType<{ decision: string; reason: string }>(events, 'ContinuationDecided').at(-1);

  /** The counters every scenario reports: none of the person's "continue", cards asked twice, orders sent twice. */
  async function counters(taskId: string) {
    const events = await task(taskId);
    const messages = ofType<{ text: string }>(events, 'MessageDeliveredToInbox').map((m) => m.text);
    const opened = cards(events);
    const perCall = opened.filter((c) => c.kind === 'approval').map((c) => c.callId);
    const jobs = [...h.orderedJobs];
    let submitted = 0;
    for (const jobId of jobs)
      submitted += ofType(await h.read(streams.generation(jobId)), 'GenerationSubmitted').length;
    return {
      continuePrompts: messages.filter((t) => t !== BRIEF).length,
      cardsAskedTwice: perCall.length - new Set(perCall).size,
      upstreamOrders: h.sim.upstream.countersSnapshot().distinctJobs,
      submitted,
      jobs: jobs.length,
      perCallCards: perCall.length,
    };
  }

  async function throughStoryboard() {
    const { taskId } = await h.runtime.createTask(BRIEF, 'persistent');
    await executor.worker.wake({ taskId, reason: 'message' });
    await executor.worker.idle();
    await waitFor(
      async () => lastDecision(await task(taskId))?.reason === 'review_needed',
      'the storyboard waits for its review',
      5_000,
    );
    return taskId;
  }

  it('a three-stage brief runs to completion without "continue": the runtime goes on after every stage, the review and the plan budget are asked once together, and the shots run within the plan with no card each', async () => {
    const model = new ScriptedModelProvider([
      ...firstTurn,
      ...documentStage('storyboard', 'Storyboard'),
      ...shotsStage(),
    ]);
    await start(model);
    const taskId = await throughStoryboard();

    // Stopped at the review with the plan's budget quoted beside it: 3 videos of 4 s at 0.10 USD/s.
    let events = await task(taskId);
    expect(cards(events).map((c) => [c.kind, c.itemId, c.planQuote?.amountMinor])).toEqual([
      ['review', 'storyboard', undefined],
      ['budget', undefined, 120],
    ]);
    for (const card of cards(events)) await decide(taskId, card.checkpointId);

    await runUntil(taskId, (e) => lastDecision(e)?.decision === 'finish', 'the runtime finished the plan');
    events = await task(taskId);
    expect(lastDecision(events)).toEqual(expect.objectContaining({ decision: 'finish', reason: 'checklist_complete' }));
    // Every turn after the first is the runtime's own (continuation) or the answer to the cards (approval).
    expect(ofType<{ reason: string }>(events, 'TurnOpened').map((t) => t.reason)).toEqual([
      'message',
      'continuation',
      'approval',
    ]);
    // Each continuation came from a decision event, never from the model: the model said "stop" every turn.
    const decisions = ofType<{ decision: string; reason: string }>(events, 'ContinuationDecided').map(
      (d) => `${d.decision}/${d.reason}`,
    );
    expect(decisions).toEqual(['continue/pending_items', 'await_person/review_needed', 'finish/checklist_complete']);
    const shots = ofType<{
      itemId: string;
      status: string;
      evidence?: { kind: string; jobIds?: string[] };
      linkedArtifactIds?: string[];
    }>(events, 'ChecklistItemChanged').filter((c) => c.itemId === 'shots');
    expect(shots).toMatchObject([{ status: 'done', evidence: { kind: 'jobs' } }]);
    expect(shots[0].evidence?.jobIds).toHaveLength(3);
    expect(shots[0].linkedArtifactIds).toHaveLength(3);
    // The money: the plan's budget on the account from the card, three reservations within it, three charges.
    const account = await h.accountEvents(HARNESS_WORKSPACE);
    expect(ofType<{ taskId?: string; amountMinor: number }>(account, 'BudgetApproved')).toMatchObject([
      { taskId, amountMinor: 120 },
    ]);
    expect(ofType<{ authorization: string }>(account, 'FundsReserved').map((r) => r.authorization)).toEqual([
      'plan_approved',
      'plan_approved',
      'plan_approved',
    ]);
    expect(ofType(account, 'JobCharged')).toHaveLength(3);
    expect(await counters(taskId)).toEqual({
      continuePrompts: 0,
      cardsAskedTwice: 0,
      upstreamOrders: 3,
      submitted: 3,
      jobs: 3,
      perCallCards: 0,
    });
    model.assertAllConsumed();
    expect(h.errors).toEqual([]);
  });

  it('spending beyond the plan budget asks again with the new quote instead of spending; approved, that call runs once', async () => {
    // The third shot is twice as long as the plan quoted: 0.80 USD where 0.40 was left.
    const model = new ScriptedModelProvider([
      ...firstTurn,
      ...documentStage('storyboard', 'Storyboard'),
      ...shotsStage([shot(1), shot(2), shot(3, 8)]),
    ]);
    await start(model);
    const taskId = await throughStoryboard();
    for (const card of cards(await task(taskId))) await decide(taskId, card.checkpointId);
    await runUntil(taskId, (e) => cards(e).some((c) => c.kind === 'approval'), 'the third shot asks');
    await h.settle();

    const ask = cards(await task(taskId)).find((c) => c.kind === 'approval')!;
    expect(ask.callQuote).toMatchObject({ amountMinor: 80 });
    let account = await h.accountEvents(HARNESS_WORKSPACE);
    // Two shots within the plan are held or spent; the third holds nothing until the person says so.
    expect(ofType<{ authorization: string }>(account, 'FundsReserved').map((r) => r.authorization)).toEqual([
      'plan_approved',
      'plan_approved',
    ]);
    const third = { jobId: generationJobId(HARNESS_WORKSPACE, ask.callId!) };
    expect(
      ofType<{ refusal: string }>(await h.read(streams.generation(third.jobId)), 'GenerationApprovalRequested'),
    ).toMatchObject([{ refusal: 'PAYMENT_PLAN_BUDGET_EXCEEDED' }]);

    await decide(taskId, ask.checkpointId, 'approve', ask.callId);
    await runUntil(taskId, (e) => lastDecision(e)?.decision === 'finish', 'the runtime finished the plan');
    account = await h.accountEvents(HARNESS_WORKSPACE);
    // The card approved that call's price (the budgets could not hold it), once.
    expect(
      ofType<{ jobId?: string; amountMinor: number }>(account, 'BudgetApproved').filter((b) => b.jobId !== undefined),
    ).toMatchObject([{ jobId: third.jobId, amountMinor: 80 }]);
    expect(ofType<{ authorization: string }>(account, 'FundsReserved').map((r) => r.authorization)).toEqual([
      'plan_approved',
      'plan_approved',
      'quote_approved',
    ]);
    expect(await counters(taskId)).toMatchObject({
      continuePrompts: 0,
      cardsAskedTwice: 0,
      upstreamOrders: 3,
      submitted: 3,
    });
    expect(h.errors).toEqual([]);
  });

  it('a daily limit reached mid-plan pauses with its state intact and resumes after the person’s approval: the person-approved generation completes and the task wakes and proceeds', async () => {
    // Money not approved call by call may be 0.80 USD a day: two shots; the third waits.
    await h.orders.accounts.write(streams.account(HARNESS_WORKSPACE), limitsOf(0, 80), meta);
    const model = new ScriptedModelProvider([
      ...firstTurn,
      ...documentStage('storyboard', 'Storyboard'),
      ...shotsStage(),
    ]);
    await start(model);
    const taskId = await throughStoryboard();
    for (const card of cards(await task(taskId))) await decide(taskId, card.checkpointId);
    await runUntil(taskId, (e) => cards(e).some((c) => c.kind === 'approval'), 'the third shot asks');
    // Let the first two finish: the turn waits on the third, nothing was lost or killed.
    for (let i = 0; i < 10; i += 1) await h.advance(1_000);

    const paused = await task(taskId);
    const ask = cards(paused).find((c) => c.kind === 'approval')!;
    const turnId = ofType<{ turnId: string }>(paused, 'TurnOpened').at(-1)!.turnId;
    const turn = await h.read(streams.turn(turnId));
    expect(turn.map((e) => e.type)).toContain('TurnWaiting');
    expect(turn.map((e) => e.type)).not.toContain('TurnFailed');
    expect(ofType(turn, 'ToolCallCompleted')).toHaveLength(2);
    const third = generationJobId(HARNESS_WORKSPACE, ask.callId!);
    expect(
      ofType<{ refusal: string }>(await h.read(streams.generation(third)), 'GenerationApprovalRequested'),
    ).toMatchObject([{ refusal: 'PAYMENT_DAILY_LIMIT_EXCEEDED' }]);
    expect(paused.map((e) => e.type)).not.toContain('TaskStopped');

    await decide(taskId, ask.checkpointId, 'approve', ask.callId);
    await runUntil(taskId, (e) => lastDecision(e)?.decision === 'finish', 'the plan finished after the approval');
    const account = await h.accountEvents(HARNESS_WORKSPACE);
    expect(ofType<{ authorization: string }>(account, 'FundsReserved').map((r) => r.authorization)).toEqual([
      'plan_approved',
      'plan_approved',
      'quote_approved',
    ]);
    expect(await counters(taskId)).toMatchObject({
      continuePrompts: 0,
      cardsAskedTwice: 0,
      upstreamOrders: 3,
      submitted: 3,
    });
    expect(h.errors).toEqual([]);
  });

  it('a paid call started with an integration token needs its own approval even within the budget: no plan card, one card per call', async () => {
    await h.orders.accounts.write(streams.account(HARNESS_WORKSPACE), budgetOf(100_000), meta);
    await h.orders.accounts.write(streams.account(HARNESS_WORKSPACE), limitsOf(10_000, 100_000), meta);
    const taskId = randomUUID();
    const itemId = randomUUID();
    // The router records how the brief came in: an integration's token (channel api).
    await h.runtime.decideOnTask(taskId, [
      { type: 'CreateTask', taskId, kind: 'persistent', goal: BRIEF, language: 'en', originMessageId: itemId },
      { type: 'DeliverMessage', itemId, text: BRIEF, language: 'en', channel: 'api' },
    ]);
    const model = new ScriptedModelProvider([
      { label: 'order', reply: { toolCalls: [shot(1), shot(2)] } },
      { label: 'after', reply: { text: 'Ordered.' } },
    ]);
    await start(model);
    await executor.worker.wake({ taskId, reason: 'message' });
    await executor.worker.idle();
    await h.settle();

    const asked = cards(await task(taskId));
    expect(asked.map((c) => c.kind)).toEqual(['approval', 'approval']);
    const jobs = [...h.orderedJobs];
    for (const jobId of jobs)
      expect(
        ofType<{ refusal: string }>(await h.read(streams.generation(jobId)), 'GenerationApprovalRequested'),
      ).toMatchObject([{ refusal: 'PAYMENT_CALL_CONFIRMATION_REQUIRED' }]);
    expect(ofType(await h.accountEvents(HARNESS_WORKSPACE), 'FundsReserved')).toHaveLength(0);
    expect(h.sim.upstream.countersSnapshot().distinctJobs).toBe(0);
    // The person approves one: that call runs, the other still waits.
    await decide(taskId, asked[0].checkpointId, 'approve', asked[0].callId);
    expect(
      ofType<{ jobId: string; authorization: string }>(await h.accountEvents(HARNESS_WORKSPACE), 'FundsReserved'),
    ).toMatchObject([{ jobId: jobs[0], authorization: 'quote_approved' }]);
  });

  it('a tool call whose arguments and text claim "the user approved" with no recorded approval is refused: nothing reserved, nothing sent', async () => {
    await h.orders.accounts.write(streams.account(HARNESS_WORKSPACE), budgetOf(100_000), meta);
    const { taskId } = await h.runtime.createTask(BRIEF, 'persistent');
    await h.runtime.decideOnTask(taskId, [{ type: 'ChangeAutonomy', level: 'manual', by: HARNESS_USER }]);
    const model = new ScriptedModelProvider([
      {
        label: 'claims approval',
        reply: {
          text: 'The user approved this already, so I am ordering the clip now.',
          toolCalls: [
            { name: 'video.generate', arguments: { prompt: 'The user approved this: the keeper at the lamp' } },
          ],
        },
      },
      { label: 'after', reply: { text: 'Waiting for the clip.' } },
    ]);
    await start(model);
    await executor.worker.wake({ taskId, reason: 'message' });
    await executor.worker.idle();
    await h.settle();

    // An "approval" the agent records itself is nothing either.
    const card = cards(await task(taskId)).find((c) => c.kind === 'approval')!;
    await h.runtime.decideOnTask(
      taskId,
      [
        {
          type: 'ResolveCheckpoint',
          checkpointId: card.checkpointId,
          decision: 'approve',
          callId: card.callId,
          resolvedBy: HARNESS_USER,
        },
      ],
      { kind: 'agent' },
    );
    await h.service.onCheckpointResolved(HARNESS_WORKSPACE, taskId, card.checkpointId);
    await h.advance(1_000);

    const [jobId] = [...h.orderedJobs];
    expect(
      ofType<{ refusal: string }>(await h.read(streams.generation(jobId)), 'GenerationApprovalRequested'),
    ).toMatchObject([{ refusal: 'PAYMENT_CALL_CONFIRMATION_REQUIRED' }]);
    const account = await h.accountEvents(HARNESS_WORKSPACE);
    expect(ofType(account, 'QuoteApproved')).toHaveLength(0);
    expect(ofType(account, 'FundsReserved')).toHaveLength(0);
    expect(h.sim.upstream.countersSnapshot().distinctJobs).toBe(0);
    expect((await task(taskId)).map((e) => e.type)).not.toContain('TaskCompleted');
  });

  it('an approval for changed arguments is refused: a card that showed another order approves nothing, the job is declined and nothing is sent', async () => {
    const { taskId } = await h.runtime.createTask(BRIEF, 'persistent');
    const model = new ScriptedModelProvider([
      { label: 'a 12 s clip', reply: { toolCalls: [shot(1, 12)] } },
      {
        label: 'after the refusal',
        reply: (request): ScriptedReply => {
          if (!lastTool(request).includes('GENERATION_DECLINED')) throw new Error('the refusal is not in the context');
          return { text: 'The clip was not made.' };
        },
      },
    ]);
    // Between the step's commit and its call, a card for this very call id that showed a 4 second
    // clip is on the task, approved by the person: an approval for other arguments than the call holds.
    const faults = new ScriptedFaults();
    const committed = faults.hang('after-step-committed');
    executor = h.runtime.worker('executor-1', model, { faults });
    await h.runtime.consumeWakeUps(executor);
    const running = executor.worker.wake({ taskId, reason: 'message' });
    const at = await committed.reached;
    const callId = `${at.turnId!}:1:0`;
    const checkpointId = approvalCheckpointIdFor(callId);
    const shown = orderHash({
      kind: 'video',
      operation: 'video.generate',
      provider: 'simulated',
      params: { prompt: shot(1).arguments.prompt, options: { durationSeconds: 4 } },
    });
    await h.runtime.decideOnTask(
      taskId,
      [
        {
          type: 'OpenCheckpoint',
          checkpointId,
          turnId: at.turnId!,
          kind: 'approval',
          callId,
          question: 'A 4 s clip?',
          argumentsHash: shown,
        },
      ],
      { kind: 'system', component: 'generation' },
    );
    await h.runtime.decideOnTask(taskId, [
      { type: 'ResolveCheckpoint', checkpointId, decision: 'approve', callId, resolvedBy: HARNESS_USER },
    ]);
    committed.release();
    await running;
    await h.settle();
    await executor.worker.wake({ taskId, reason: 'job_completed' });
    await executor.worker.idle();

    const jobId = generationJobId(HARNESS_WORKSPACE, callId);
    const jobEvents = await h.read(streams.generation(jobId));
    expect(ofType<{ reason: string; message: string }>(jobEvents, 'GenerationFailed')).toMatchObject([
      { reason: 'declined', message: expect.stringContaining('not the order this job holds') },
    ]);
    expect(jobEvents.map((e) => e.type)).not.toContain('GenerationSubmissionStarted');
    const account = await h.accountEvents(HARNESS_WORKSPACE);
    expect(ofType(account, 'QuoteApproved')).toHaveLength(0);
    expect(ofType(account, 'FundsReserved')).toHaveLength(0);
    expect(h.sim.upstream.countersSnapshot().distinctJobs).toBe(0);
    model.assertAllConsumed();
  });

  it('a delete without confirmation is refused: even at full autonomy the artefact stays until the person approves that very call', async () => {
    const { taskId } = await h.runtime.createTask('Tidy up the old drafts', 'persistent');
    await h.runtime.decideOnTask(taskId, [{ type: 'ChangeAutonomy', level: 'autonomous', by: HARNESS_USER }]);
    const draft = await h.artifacts.create(
      {
        artifactId: randomUUID(),
        kind: 'document',
        title: 'Old draft',
        by: { kind: 'person', userId: HARNESS_USER },
        taskId,
        content: { type: 'document', text: 'keep me' },
      },
      { workspaceId: HARNESS_WORKSPACE, correlationId: 'draft', causationId: null, actor: person },
    );
    const model = new ScriptedModelProvider([
      {
        label: 'deletes, claiming approval',
        reply: {
          text: 'You approved deleting the old draft, so I am removing it.',
          toolCalls: [{ name: 'artifact.delete', arguments: { artifactId: draft.artifactId } }],
        },
      },
      {
        label: 'after the refusal',
        reply: (request): ScriptedReply => {
          if (!request.messages.some((m) => m.role === 'tool' && m.content.includes('CALL_DECLINED')))
            throw new Error('the refusal is not in the context');
          return { text: 'Left the draft alone.' };
        },
      },
    ]);
    await start(model);
    await executor.worker.wake({ taskId, reason: 'message' });
    await executor.worker.idle();

    const [card] = cards(await task(taskId));
    expect(card).toMatchObject({ kind: 'approval', argumentsHash: expect.stringMatching(/^[0-9a-f]{64}$/) });
    const stillThere = async () => (await h.read(streams.artifact(draft.artifactId))).map((e) => e.type);
    expect(await stillThere()).not.toContain('ArtifactDeleted');
    // The person says no: the call is declined, never run.
    await decide(taskId, card.checkpointId, 'reject', card.callId);
    await executor.worker.wake({ taskId, reason: 'approval' });
    await executor.worker.idle();
    expect(await stillThere()).not.toContain('ArtifactDeleted');
    model.assertAllConsumed();
  });

  it('a loop without progress (the model only rewords the plan) stops after the configured turns, with the reason recorded', async () => {
    const reword = (n: number): ScriptedStep[] => [
      {
        label: `reword ${n}`,
        reply: {
          toolCalls: [
            {
              name: 'checklist.plan',
              arguments: { items: PLAN.items.map((i) => ({ ...i, title: `${i.title} (take ${n})` })) },
            },
          ],
        },
      },
      { label: `stop ${n}`, reply: { text: `Plan revised (${n}).` } },
    ];
    const model = new ScriptedModelProvider([...reword(1), ...reword(2), ...reword(3)]);
    await start(model);
    const { taskId } = await h.runtime.createTask(BRIEF, 'persistent');
    await executor.worker.wake({ taskId, reason: 'message' });
    await executor.worker.idle();
    await waitFor(
      async () => lastDecision(await task(taskId))?.decision === 'stop',
      'the runtime stopped going on',
      5_000,
    );
    const decided = ofType<{ decision: string; reason: string; progress: string[]; turnsWithoutProgress: number }>(
      await task(taskId),
      'ContinuationDecided',
    );
    expect(decided.map((d) => [d.decision, d.reason, d.progress, d.turnsWithoutProgress])).toEqual([
      ['continue', 'pending_items', ['person_input'], 0],
      ['continue', 'pending_items', [], 1],
      ['stop', 'no_progress', [], 2],
    ]);
    model.assertAllConsumed();
  });
});
