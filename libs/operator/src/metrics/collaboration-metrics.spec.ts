import { randomUUID } from 'node:crypto';
import type { EventEnvelope } from '@lomo/contracts';
import { collaborationMetrics, IDEAL_FIGURES, metricFigures } from './collaboration-metrics';
import type { ScenarioTruth } from './collaboration-log';

const T0 = Date.parse('2026-12-01T09:00:00.000Z');

/** A log written in order: each event one second after the one before. */
function log() {
  const events: EventEnvelope[] = [];
  const revisions = new Map<string, number>();
  const at = (streamId: string, type: string, data: unknown, seconds?: number) => {
    const revision = (revisions.get(streamId) ?? -1) + 1;
    revisions.set(streamId, revision);
    const time = seconds === undefined ? T0 + events.length * 1000 : T0 + seconds * 1000;
    events.push({
      type,
      data,
      metadata: {
        eventId: randomUUID(),
        streamId,
        revision,
        globalPosition: String(events.length + 1),
        occurredAt: new Date(time).toISOString(),
        workspaceId: 'ws',
        correlationId: 'c',
        causationId: null,
        actor: { kind: 'agent' },
        schemaVersion: 1,
      } as EventEnvelope['metadata'],
    });
  };
  return { events, at };
}

const TASK = 'task-a';
const TURN = 'turn-1';
const message = (id: string, text: string, language = 'en', clientMessageId?: string) => ({
  messageId: id,
  userId: 'u',
  text,
  language,
  channel: 'ui',
  ...(clientMessageId ? { clientMessageId } : {}),
});

/** A task with a turn: the common start of the stories below. */
function taskStory(language = 'en') {
  const l = log();
  l.at('main-ws.u', 'UserMessageReceived', message('m1', 'Make three spring posters', language));
  l.at(TASK, 'TaskCreated', { taskId: 'a', kind: 'persistent', goal: 'posters', language, originMessageId: 'm1' });
  l.at(TASK, 'TurnOpened', { turnId: '1', reason: 'message' });
  return l;
}

const figures = async (
  events: EventEnvelope[],
  truth: ScenarioTruth = {},
  promptText?: (ref: unknown) => Promise<string | null>,
) => metricFigures(await collaborationMetrics({ events, ...(promptText ? { promptText } : {}) }, truth));

describe('collaboration metrics, computed from the log', () => {
  it('an uneventful collaboration scores the ideal on every count', async () => {
    const { events, at } = taskStory();
    at(TURN, 'ModelStepCommitted', { step: 1, reply: 'I will draft the three posters now.', toolCallIntents: [] });
    expect(await figures(events)).toMatchObject(IDEAL_FIGURES);
  });

  it('continue prompts: a bare "continue" (English or Chinese) counts, an instruction that starts with it does not', async () => {
    const { events, at } = taskStory();
    at('main-ws.u', 'UserMessageReceived', message('m2', 'Continue.'));
    at('main-ws.u', 'UserMessageReceived', message('m3', '繼續', 'zh-Hant'));
    at('main-ws.u', 'UserMessageReceived', message('m4', 'continue, but make them warmer'));
    expect((await figures(events)).continue_prompts).toBe(2);
  });

  it('unnecessary confirmations: the same review asked again after it was approved, unless the person spoke since', async () => {
    const { events, at } = taskStory();
    const review = (id: string) => ({
      checkpointId: id,
      turnId: '1',
      kind: 'review',
      question: 'OK?',
      itemId: 'storyboard',
    });
    at(TASK, 'CheckpointOpened', review('c1'));
    at(TASK, 'CheckpointResolved', { checkpointId: 'c1', decision: 'approve', resolvedBy: 'u' });
    at(TASK, 'CheckpointOpened', review('c2'));
    expect((await figures(events)).unnecessary_confirmations).toBe(1);

    const after = taskStory();
    after.at(TASK, 'CheckpointOpened', review('c1'));
    after.at(TASK, 'CheckpointResolved', { checkpointId: 'c1', decision: 'approve', resolvedBy: 'u' });
    after.at(TASK, 'MessageDeliveredToInbox', {
      itemId: 'm9',
      messageId: 'm9',
      text: 'redo the storyboard',
      language: 'en',
    });
    after.at(TASK, 'CheckpointOpened', review('c2'));
    expect((await figures(after.events)).unnecessary_confirmations).toBe(0);
  });

  it('duplicate generations: the same paid job again with nothing new from the person; a redo after a failure is none', async () => {
    const { events, at } = taskStory();
    const job = (jobId: string, callId: string) => ({
      jobId,
      workspaceId: 'ws',
      taskId: 'a',
      turnId: '1',
      callId,
      provider: 'sim',
      kind: 'image',
      operation: 'generate',
      params: { prompt: 'A spring poster, pastel', options: { size: 'a3' } },
      quote: {},
      requestedAt: new Date(T0).toISOString(),
    });
    at('generation-j1', 'GenerationRequested', job('j1', '1:1:0'));
    at('generation-j1', 'GenerationFailed', {
      reason: 'timeout',
      message: 'slow',
      failedAt: new Date(T0).toISOString(),
    });
    at('generation-j2', 'GenerationRequested', job('j2', '1:2:0'));
    expect((await figures(events)).duplicate_generations).toBe(0);
    at('generation-j3', 'GenerationRequested', job('j3', '1:3:0'));
    expect((await figures(events)).duplicate_generations).toBe(1);
  });

  it('duplicate artefacts: the agent creating a second "Poster 1" in the task counts; the person’s own upload does not', async () => {
    const { events, at } = taskStory();
    const created = (artifactId: string, by: unknown) => ({
      artifactId,
      kind: 'image',
      title: 'Poster 1',
      createdBy: by,
      taskId: 'a',
      content: {},
    });
    at('artifact-p1', 'ArtifactCreated', created('p1', { kind: 'agent', taskId: 'a', callId: '1:1:0' }));
    at('artifact-p2', 'ArtifactCreated', created('p2', { kind: 'person', userId: 'u' }));
    expect((await figures(events)).duplicate_artifacts).toBe(0);
    at('artifact-p3', 'ArtifactCreated', created('p3', { kind: 'generation', jobId: 'j', taskId: 'a' }));
    expect((await figures(events)).duplicate_artifacts).toBe(1);
  });

  it('misroutes: against the scenario’s intended task per message', async () => {
    const { events, at } = taskStory();
    at('main-ws.u', 'RoutingDecided', {
      messageId: 'm1',
      outcome: 'new',
      taskId: 'a',
      method: 'deterministic',
      candidates: [],
    });
    at('main-ws.u', 'UserMessageReceived', message('m2', 'Make a short video too', 'en', 'video-1'));
    at('main-ws.u', 'RoutingDecided', {
      messageId: 'm2',
      outcome: 'existing',
      taskId: 'a',
      method: 'semantic',
      candidates: [],
    });
    at('main-ws.u', 'UserMessageReceived', message('m3', 'Warmer colours on the posters', 'en', 'posters-2'));
    at('main-ws.u', 'RoutingDecided', {
      messageId: 'm3',
      outcome: 'existing',
      taskId: 'a',
      method: 'semantic',
      candidates: [],
    });
    const truth: ScenarioTruth = {
      intendedTargets: new Map<string, { new: string } | { task: string }>([
        ['Make three spring posters', { new: 'posters' }],
        ['video-1', { new: 'video' }],
        ['posters-2', { task: 'posters' }],
      ]),
    };
    const metrics = await collaborationMetrics({ events }, truth);
    expect(metrics.misroutes.count).toBe(1);
    expect(metrics.misroutes.findings[0].detail).toMatch(/meant to open "video", routed existing a/);
  });

  it('stale edits: the agent revising over a person’s change it never saw, and a write refused for its stale base', async () => {
    const { events, at } = taskStory();
    const agent = { kind: 'agent', taskId: 'a', callId: '1:1:0' };
    at(TASK, 'ArtifactChangeNoticed', {
      noticeId: 'n1',
      artifactId: 'd1',
      fromVersion: 1,
      toVersion: 2,
      by: { kind: 'person', userId: 'u' },
      nodes: [],
      summary: '',
    });
    at(TASK, 'ArtifactChangeNoticesConsumed', { turnId: '1', step: 1, noticeIds: ['n1'] });
    at('artifact-d1', 'ArtifactRevised', { version: 3, baseVersion: 2, by: agent, change: {} });
    expect((await figures(events)).stale_edits).toBe(0);
    at(TASK, 'ArtifactChangeNoticed', {
      noticeId: 'n2',
      artifactId: 'd1',
      fromVersion: 3,
      toVersion: 4,
      by: { kind: 'person', userId: 'u' },
      nodes: [],
      summary: '',
    });
    at('artifact-d1', 'ArtifactRevised', { version: 5, baseVersion: 4, by: agent, change: {} });
    at(TURN, 'ToolCallCompleted', {
      callId: '1:2:0',
      status: 'error',
      error: { code: 'ARTIFACT_VERSION_CONFLICT', message: 'behind' },
    });
    expect((await figures(events)).stale_edits).toBe(2);
  });

  it('stale edits: an agent revision based on a version older than the person’s latest, even when it merged', async () => {
    const { events, at } = taskStory();
    const agent = { kind: 'agent', taskId: 'a', callId: '1:1:0' };
    const person = { kind: 'person', userId: 'u' };
    // the person revises the storyboard to v2; the agent's next edit based on v2 is current
    at('artifact-d1', 'ArtifactRevised', { version: 2, baseVersion: 1, by: person, change: {} });
    at('artifact-d1', 'ArtifactRevised', { version: 3, baseVersion: 2, by: agent, change: {} });
    expect((await figures(events)).stale_edits).toBe(0);
    // the person revises again (v4); an agent edit still based on v3 is stale, though it applied
    at('artifact-d1', 'ArtifactRevised', { version: 4, baseVersion: 3, by: person, change: {} });
    at('artifact-d1', 'ArtifactRevised', { version: 5, baseVersion: 3, by: agent, change: {} });
    const metrics = await collaborationMetrics({ events });
    expect(metrics.staleEdits.count).toBe(1);
    expect(metrics.staleEdits.findings[0]?.detail).toContain("from v3, older than the person's v4");
  });

  it('language switches: a Chinese reply in an English task counts; an English reply quoting a Chinese title does not', async () => {
    const { events, at } = taskStory('en');
    at(TURN, 'ModelStepCommitted', {
      step: 1,
      reply: 'Here is the poster called 春日 with warm pastel colours.',
      toolCallIntents: [],
    });
    expect((await figures(events)).language_switches).toBe(0);
    at(TURN, 'ModelStepCommitted', { step: 2, reply: '我會先規劃三張海報的版面。', toolCallIntents: [] });
    expect((await figures(events)).language_switches).toBe(1);
  });

  it('cost over budget: plan-approved charges beyond the plan’s budget, and a charge with no reservation', async () => {
    const { events, at } = taskStory();
    at(TASK, 'PlanBudgetApproved', { budgetId: 'b', amountMinor: 1000, currency: 'USD', approvedBy: 'u' });
    for (const [jobId, amount] of [
      ['j1', 600],
      ['j2', 600],
    ] as const) {
      at(`generation-${jobId}`, 'GenerationRequested', {
        jobId,
        taskId: 'a',
        callId: `1:1:${jobId}`,
        kind: 'image',
        operation: 'generate',
        params: { prompt: jobId, options: {} },
      });
      at('account-ws', 'FundsReserved', {
        entryId: randomUUID(),
        jobId,
        amountMinor: amount,
        currency: 'USD',
        authorization: 'plan_approved',
      });
      at('account-ws', 'JobCharged', { entryId: randomUUID(), jobId, amountMinor: amount, currency: 'USD' });
    }
    let result = await figures(events);
    expect(result.cost_over_budget).toBe(200);
    expect(result.cost_spent_minor).toEqual({ USD: 1200 });
    at('account-ws', 'JobRefunded', {
      entryId: randomUUID(),
      jobId: 'j2',
      amountMinor: 600,
      currency: 'USD',
      reason: 'timeout',
    });
    expect((await figures(events)).cost_over_budget).toBe(0);
    at('account-ws', 'JobCharged', { entryId: randomUUID(), jobId: 'j9', amountMinor: 50, currency: 'USD' });
    result = await figures(events);
    expect(result.cost_over_budget).toBe(50);
  });

  it('cost over budget: a plan budget approved on the account (and recorded on the task too) counts once', async () => {
    const { events, at } = taskStory();
    const budget = { budgetId: 'b', amountMinor: 1000, currency: 'USD' };
    at('account-ws', 'BudgetApproved', { ...budget, taskId: 'a', approvedBy: 'u' });
    at(TASK, 'PlanBudgetApproved', { ...budget, approvedBy: 'u' });
    at('generation-j1', 'GenerationRequested', {
      jobId: 'j1',
      taskId: 'a',
      callId: '1:1:0',
      kind: 'video',
      operation: 'generate',
      params: { prompt: 'dawn', options: {} },
    });
    at('account-ws', 'FundsReserved', {
      entryId: randomUUID(),
      jobId: 'j1',
      amountMinor: 900,
      currency: 'USD',
      authorization: 'plan_approved',
    });
    at('account-ws', 'JobCharged', { entryId: randomUUID(), jobId: 'j1', amountMinor: 900, currency: 'USD' });
    const result = await figures(events);
    expect(result).toMatchObject({
      cost_over_budget: 0,
      cost_approved_minor: { USD: 1000 },
      cost_spent_minor: { USD: 900 },
    });
  });

  it('forgotten reappearing: a prompt stored after the forgetting that quotes the forgotten text', async () => {
    const { events, at } = taskStory();
    const prompts: Record<string, string> = {
      before: 'person: our main colour is blue',
      clean: 'person: [forgotten]',
      leaked: 'summary: the brand’s main colour is   BLUE',
    };
    const load = async (ref: unknown) => prompts[(ref as { key: string }).key] ?? null;
    at(TURN, 'ModelStepCommitted', { step: 1, reply: 'ok', toolCallIntents: [], promptRef: { key: 'before' } });
    at('memory-ws.u', 'ForgettingCompleted', { forgettingId: 'f' });
    at(TURN, 'ModelStepCommitted', { step: 2, reply: 'ok', toolCallIntents: [], promptRef: { key: 'clean' } });
    const truth = { forgottenTexts: ['main colour is blue'] };
    expect((await figures(events, truth, load)).forgotten_reappearing).toBe(0);
    at(TURN, 'ModelStepCommitted', { step: 3, reply: 'ok', toolCallIntents: [], promptRef: { key: 'leaked' } });
    expect((await figures(events, truth, load)).forgotten_reappearing).toBe(1);
  });

  it('pace: model calls and their tokens per delivered artefact, and the time from an approval to the next progress (or a stall)', async () => {
    const { events, at } = taskStory();
    const usage = { inputTokens: 1200, outputTokens: 40 };
    at(TURN, 'ModelStepCommitted', { step: 1, reply: '', toolCallIntents: [], usage }, 10);
    at(TASK, 'CheckpointResolved', { checkpointId: 'c1', decision: 'approve', resolvedBy: 'u' }, 20);
    at(TURN, 'ModelStepCommitted', { step: 2, reply: '', toolCallIntents: [], usage }, 21);
    at(
      'artifact-p1',
      'ArtifactCreated',
      {
        artifactId: 'p1',
        kind: 'image',
        title: 'P',
        createdBy: { kind: 'generation', jobId: 'j', taskId: 'a' },
        taskId: 'a',
        content: {},
      },
      26,
    );
    at(TASK, 'CheckpointResolved', { checkpointId: 'c2', decision: 'approve', resolvedBy: 'u' }, 30);
    const metrics = await collaborationMetrics({ events });
    expect(metrics.pace).toMatchObject({
      modelCalls: 2,
      modelTokens: 2480,
      deliveredArtifacts: 1,
      modelCallsPerArtifact: 2,
      approvalToProgressMsMedian: 6000,
    });
    expect(metrics.pace.stalledApprovals).toHaveLength(1);
  });

  it('pace: approving the last review, after which the runtime finds the checklist complete, is no stall', async () => {
    // given a task whose last stage's review is approved
    const { events, at } = taskStory();
    at(TASK, 'CheckpointResolved', { checkpointId: 'c1', decision: 'approve', resolvedBy: 'u' }, 20);
    at(TASK, 'TurnOpened', { turnId: '2', reason: 'checkpoint' }, 21);
    // when the turn it opens finds nothing left to do, the approval is still waiting
    expect((await collaborationMetrics({ events })).pace.stalledApprovals).toHaveLength(1);
    // then the runtime's finish (every item settled) answers it: nothing was left to continue
    at(TASK, 'ContinuationDecided', { turnId: '2', decision: 'finish', reason: 'checklist_complete' }, 22);
    const metrics = await collaborationMetrics({ events });
    expect(metrics.pace.stalledApprovals).toHaveLength(0);
    expect(metrics.pace.approvalToProgressMsMedian).toBe(2000);
    // while a decision to wait for the person is not progress
    const waiting = taskStory();
    waiting.at(TASK, 'CheckpointResolved', { checkpointId: 'c1', decision: 'approve', resolvedBy: 'u' }, 20);
    waiting.at(TASK, 'ContinuationDecided', { turnId: '2', decision: 'await_person', reason: 'no_plan' }, 22);
    expect((await collaborationMetrics({ events: waiting.events })).pace.stalledApprovals).toHaveLength(1);
  });
});
