import type { RoutingAnswer } from '@lomo/contracts';
import { taskDecider, type TaskState } from '@lomo/domain';
import { planRouting } from './plan-routing';
import { DEFAULT_ROUTING_SETTINGS, type RouteCandidate, type RoutingView, type UserMessage } from './routing-view';

const MSG = '7d2a9c1e-3f4b-4a5c-9d6e-1f2a3b4c5d6e';
const T1 = '0b9c6f3e-8a51-4d7e-9a35-2f7c1d4e5a60';
const T2 = '1c9c6f3e-8a51-4d7e-9a35-2f7c1d4e5a61';

const message = (extra: Partial<UserMessage> = {}): UserMessage => ({
  messageId: MSG,
  userId: 'u1',
  text: 'make it warmer',
  language: 'en',
  channel: 'ui',
  ...extra,
});
const given = (extra: Partial<RoutingView> = {}): RoutingView => ({
  message: message(),
  userId: 'u1',
  recentDecisions: [],
  taskStates: {},
  settings: DEFAULT_ROUTING_SETTINGS,
  ...extra,
});
const active = (taskId: string, goal: string): TaskState =>
  taskDecider.evolve(taskDecider.initialState(), {
    type: 'TaskCreated',
    data: { taskId, kind: 'persistent', goal, language: 'en', originMessageId: MSG },
  });
const candidate = (taskId: string, goal: string, evidence: number): RouteCandidate => ({
  taskId,
  goal,
  summary: null,
  kind: 'persistent',
  status: 'active',
  lastActiveAt: '2026-12-01T10:00:00.000Z',
  source: 'recent',
  evidence,
});
const model = (value: Partial<RoutingAnswer> & Pick<RoutingAnswer, 'outcome'>) => ({
  ok: true as const,
  value: { taskRef: null, scores: [], reply: null, goal: null, question: null, ...value },
  model: 'scripted',
  attempts: 1,
  usage: { inputTokens: 10, outputTokens: 5 },
  refs: new Map([
    ['t1', T1],
    ['t2', T2],
  ]),
});

describe('planRouting: the next step for a message', () => {
  it('an explicit target is decided at once, with no retrieval and no model step', () => {
    const step = planRouting(
      given({ message: message({ target: { taskId: T1 } }), explicitTask: active(T1, 'Poster') }),
    );
    expect(step).toMatchObject({
      kind: 'decided',
      routing: { decision: { outcome: 'existing', taskId: T1, method: 'deterministic' } },
    });
  });

  it('a message with no target first asks for candidates, then for the model', () => {
    expect(planRouting(given())).toEqual({ kind: 'retrieve-candidates', text: 'make it warmer' });
    expect(planRouting(given({ candidates: [] }))).toEqual({ kind: 'ask-model' });
  });

  it('a chosen task is read before anything is delivered to it', () => {
    const view = given({
      candidates: [candidate(T1, 'Poster', 0.6), candidate(T2, 'Video', 0)],
      routingAnswer: model({ outcome: 'existing', taskRef: 't1' }),
    });
    expect(planRouting(view)).toEqual({ kind: 'read-tasks', taskIds: [T1] });
    const decided = planRouting({ ...view, taskStates: { [T1]: active(T1, 'Poster') } });
    expect(decided).toMatchObject({
      kind: 'decided',
      routing: { decision: { outcome: 'existing', taskId: T1 }, deliver: { messageId: MSG } },
    });
  });

  it('the margin guard asks when the two best candidates are too close, whatever the model chose', () => {
    const step = planRouting(
      given({
        candidates: [candidate(T1, 'Spring posters', 0.4), candidate(T2, 'Summer posters', 0.35)],
        routingAnswer: model({ outcome: 'existing', taskRef: 't2', scores: [{ ref: 't2', score: 0.95 }] }),
      }),
    );
    expect(step).toMatchObject({
      kind: 'decided',
      routing: { decision: { outcome: 'clarify' }, clarification: { reason: 'ambiguous' } },
    });
  });

  it('a gap of exactly the margin is not closer than it: the newest decision (0.35) goes ahead of an older one (0.2)', () => {
    // The read-your-writes boosts of the person's two latest tasks; 0.35 - 0.2 is 0.1499… in floating point.
    const recent = (taskId: string, goal: string, evidence: number): RouteCandidate => ({
      ...candidate(taskId, goal, evidence),
      source: 'recent_decision',
    });
    const view = given({
      candidates: [recent(T1, 'Short video of the mountain railway', 0.35), recent(T2, '3D model of the ferry', 0.2)],
      routingAnswer: model({
        outcome: 'existing',
        taskRef: 't1',
        scores: [
          { ref: 't1', score: 0.35 },
          { ref: 't2', score: 0.2 },
        ],
      }),
    });
    expect(planRouting(view)).toEqual({ kind: 'read-tasks', taskIds: [T1] });
    // The margin itself is unchanged: a gap just under it still asks, by evidence or by the model's scores.
    const under = planRouting({
      ...view,
      candidates: [recent(T1, 'Short video of the mountain railway', 0.34), recent(T2, '3D model of the ferry', 0.2)],
    });
    expect(under).toMatchObject({ kind: 'decided', routing: { decision: { outcome: 'clarify' } } });
    const underByModel = planRouting({
      ...view,
      routingAnswer: model({
        outcome: 'existing',
        taskRef: 't1',
        scores: [
          { ref: 't1', score: 0.34 },
          { ref: 't2', score: 0.2 },
        ],
      }),
    });
    expect(underByModel).toMatchObject({
      kind: 'decided',
      routing: { decision: { outcome: 'clarify', reason: expect.stringContaining('model scores') } },
    });
  });

  it('without evidence for either task (a paraphrase), the model’s choice stands', () => {
    const step = planRouting(
      given({
        candidates: [candidate(T1, 'Spring posters', 0), candidate(T2, 'Bike video', 0)],
        routingAnswer: model({ outcome: 'existing', taskRef: 't2' }),
      }),
    );
    expect(step).toEqual({ kind: 'read-tasks', taskIds: [T2] });
  });

  it('a new persistent task waits for the duplicate check; none likely → created with the check recorded', () => {
    const view = given({ candidates: [], routingAnswer: model({ outcome: 'new', goal: 'Winter posters' }) });
    expect(planRouting(view)).toEqual({ kind: 'find-duplicates', goal: 'Winter posters' });
    expect(
      planRouting({ ...view, duplicates: [{ taskId: T1, goal: 'Bike video', summary: null, score: 0.1 }] }),
    ).toMatchObject({
      kind: 'decided',
      routing: {
        decision: { outcome: 'new', duplicateCheck: { verdict: 'none', candidates: [{ taskId: T1, score: 0.1 }] } },
        create: { kind: 'persistent', goal: 'Winter posters' },
      },
    });
  });

  it('a model that failed is a question to the person, never a drop', () => {
    const step = planRouting(
      given({
        candidates: [],
        routingAnswer: {
          ok: false,
          failure: 'unavailable',
          code: 'MODEL_TIMEOUT',
          model: 'm',
          attempts: 1,
          usage: { inputTokens: 0, outputTokens: 0 },
        },
      }),
    );
    expect(step).toMatchObject({
      kind: 'decided',
      routing: {
        decision: { outcome: 'clarify', modelStep: { failure: 'MODEL_TIMEOUT' } },
        clarification: { reason: 'model_unavailable' },
      },
    });
  });

  it('a lightweight outcome creates a lightweight task and skips the duplicate check', () => {
    const step = planRouting(
      given({ candidates: [], routingAnswer: model({ outcome: 'lightweight', goal: 'One fox image' }) }),
    );
    expect(step).toMatchObject({
      kind: 'decided',
      routing: { decision: { outcome: 'lightweight' }, create: { kind: 'lightweight' } },
    });
  });
});
