import { randomUUID } from 'node:crypto';
import { OPERATOR_READ_MESSAGE } from '@lomo/auth';
import { waitFor } from '@lomo/bus/testing';
import { SYSTEM_RULES } from '@lomo/runtime';
import { sendAndSettle } from './support/queries';
import { startStandaloneApi, type GraphqlResponse, type RunningApi } from './support/standalone-api';

const codes = (r: GraphqlResponse<unknown>) => r.errors?.map((e) => e.extensions?.code);

const SEARCH = `query($search: String, $workspaceId: ID) {
  operatorTasks(search: $search, workspaceId: $workspaceId) { complete tasks { id workspaceId goal status } }
}`;
const TASK = `query($id: ID!) {
  operatorTaskInspection(taskId: $id) {
    taskId workspaceId status feedCursor goal { text purged purgedReason }
    routing { messageId outcome method candidatesJson }
    inbox { itemId text { text purged } consumedBy state }
    turns { turnId taskId status steps { step } timeline { type } }
    steps { turnId step reply { text purged } prompt { layers { layer } } promptRefJson ledger { tool status } }
    timeline { position streamId revision occurredAt type kind summary actor generation }
  }
}`;
const TURN = `query($id: ID!) {
  operatorTurnInspection(turnId: $id, prompts: true) {
    turnId taskId workspaceId status
    steps {
      step
      prompt { tools layersPurged canonicalJson { text purged } layers { layer tokens messages { role content json } } }
    }
  }
}`;

interface Inspection {
  operatorTaskInspection: {
    taskId: string;
    workspaceId: string;
    status: string;
    feedCursor: string | null;
    goal: { text: string | null; purged: boolean; purgedReason: string | null };
    routing: { messageId: string; outcome: string; method: string; candidatesJson: string } | null;
    inbox: Array<{ itemId: string; text: { text: string | null; purged: boolean }; consumedBy: string | null }>;
    turns: Array<{ turnId: string; taskId: string; status: string; steps: Array<{ step: number }> }>;
    steps: Array<{ turnId: string; step: number; prompt: unknown; promptRefJson: string | null }>;
    timeline: Array<{ streamId: string; type: string; kind: string; summary: string; actor: string }>;
  };
}
interface TurnInspection {
  operatorTurnInspection: {
    turnId: string;
    taskId: string;
    workspaceId: string;
    steps: Array<{
      step: number;
      prompt: {
        tools: string[];
        layersPurged: boolean;
        canonicalJson: { text: string | null; purged: boolean };
        layers: Array<{
          layer: string;
          tokens: number;
          messages: Array<{ role: string | null; content: string | null }>;
        }>;
      } | null;
    }>;
  };
}

describe('operator inspection over GraphQL (operatorTasks, operatorTaskInspection, operatorTurnInspection)', () => {
  let api: RunningApi;
  const tokens: Record<'a' | 'b' | 'ci' | 'op', { id: string; token: string }> = {} as never;
  let work: { messageId: string; taskId: string; turnId: string };

  const createToken = async (workspace: string, user: string, kind: string) => {
    const args = ['create', '--workspace', workspace, '--user', user, '--name', user, '--kind', kind];
    const result = await api.tokens(args);
    if (result.code !== 0) throw new Error(`lomo tokens create failed: ${result.stderr}`);
    return JSON.parse(result.stdout.trim()) as { id: string; token: string };
  };

  beforeAll(async () => {
    api = await startStandaloneApi();
    [tokens.a, tokens.b, tokens.ci, tokens.op] = await Promise.all([
      createToken('ws_a', 'alice', 'person'),
      createToken('ws_b', 'bob', 'person'),
      createToken('ws_a', 'ci', 'integration'),
      createToken('ops', 'sam', 'operator'),
    ]);
    work = await sendAndSettle(api, tokens.a.token, 'Write a short poem about the lighthouse keeper');
  }, 120_000);

  afterAll(async () => {
    await api?.stop();
  });

  it('an operator of another workspace finds the task by a goal word and by its id, and reads its inspection: routing, inbox, the turn, its steps and a timeline in order', async () => {
    const byWord = await api.gql<{
      operatorTasks: { complete: boolean; tasks: Array<{ id: string; workspaceId: string; goal: string }> };
    }>(tokens.op.token, SEARCH, { search: 'LIGHTHOUSE keeper' });
    expect(byWord.errors).toBeUndefined();
    expect(byWord.data?.operatorTasks.complete).toBe(true);
    expect(byWord.data?.operatorTasks.tasks).toEqual([
      expect.objectContaining({ id: work.taskId, workspaceId: 'ws_a' }),
    ]);
    const byId = await api.gql<{ operatorTasks: { tasks: Array<{ id: string }> } }>(tokens.op.token, SEARCH, {
      search: work.taskId,
    });
    expect(byId.data?.operatorTasks.tasks.map((t) => t.id)).toEqual([work.taskId]);
    const otherWorkspace = await api.gql<{ operatorTasks: { tasks: unknown[] } }>(tokens.op.token, SEARCH, {
      search: 'lighthouse',
      workspaceId: 'ws_b',
    });
    expect(otherWorkspace.data?.operatorTasks.tasks).toEqual([]);

    const read = await api.gql<Inspection>(tokens.op.token, TASK, { id: work.taskId });
    expect(read.errors).toBeUndefined();
    const task = read.data!.operatorTaskInspection;
    expect(task).toMatchObject({ taskId: work.taskId, workspaceId: 'ws_a' });
    expect(task.goal.purged).toBe(false);
    expect(task.goal.text?.toLowerCase()).toContain('lighthouse');
    expect(task.routing?.messageId).toBe(work.messageId);
    expect(() => JSON.parse(task.routing!.candidatesJson) as unknown).not.toThrow();
    expect(task.inbox.map((i) => i.text.text)).toContain('Write a short poem about the lighthouse keeper');
    expect(task.turns.map((t) => t.turnId)).toContain(work.turnId);
    const turn = task.turns.find((t) => t.turnId === work.turnId)!;
    expect(turn.taskId).toBe(work.taskId);
    expect(turn.steps.length).toBeGreaterThan(0);
    expect(task.steps.filter((s) => s.turnId === work.turnId).map((s) => s.step)).toEqual(
      turn.steps.map((s) => s.step),
    );
    // Without `prompts: true` no prompt is loaded, but the step names its archive.
    expect(task.steps.every((s) => s.prompt === null && s.promptRefJson !== null)).toBe(true);
    // The timeline holds the task's and the turn's events, one step committed among them.
    const streams = new Set(task.timeline.map((e) => e.streamId));
    expect(streams.has(`task-${work.taskId}`)).toBe(true);
    expect(streams.has(`turn-${work.turnId}`)).toBe(true);
    expect(task.timeline.filter((e) => e.type === 'ModelStepCommitted').length).toBe(task.steps.length);
    expect(task.timeline.every((e) => e.summary.length > 0 && e.actor.length > 0)).toBe(true);
    expect(task.feedCursor).toEqual(expect.any(String));
  });

  it("a turn's inspection with prompts shows each step's prompt by layer: the prefix opens with the system rules", async () => {
    const read = await api.gql<TurnInspection>(tokens.op.token, TURN, { id: work.turnId });
    expect(read.errors).toBeUndefined();
    const turn = read.data!.operatorTurnInspection;
    expect(turn).toMatchObject({ turnId: work.turnId, taskId: work.taskId, workspaceId: 'ws_a' });
    const prompt = turn.steps[0].prompt!;
    expect(prompt.layersPurged).toBe(false);
    expect(prompt.canonicalJson.purged).toBe(false);
    expect(prompt.layers.length).toBeGreaterThan(1);
    const first = prompt.layers[0];
    expect(first.tokens).toBeGreaterThan(0);
    expect(first.messages[0].role).toBe('system');
    expect(first.messages[0].content?.startsWith(SYSTEM_RULES.slice(0, 60))).toBe(true);
    // The person's message is in the prompt as sent.
    const sent = prompt.layers.flatMap((l) => l.messages.map((m) => m.content ?? ''));
    expect(sent.some((c) => c.includes('lighthouse keeper'))).toBe(true);
  });

  it("a person's token, even of the task's own workspace, and an integration's are FORBIDDEN, and nothing of the task comes back", async () => {
    for (const token of [tokens.a.token, tokens.b.token, tokens.ci.token]) {
      const search = await api.gql<unknown>(token, SEARCH, { search: 'lighthouse' });
      const task = await api.gql<unknown>(token, TASK, { id: work.taskId });
      const turn = await api.gql<unknown>(token, TURN, { id: work.turnId });
      for (const refused of [search, task, turn]) {
        expect({ data: refused.data, codes: codes(refused) }).toEqual({ data: null, codes: ['FORBIDDEN'] });
        expect(JSON.stringify(refused)).not.toContain('lighthouse');
      }
    }
  });

  it('an unknown task or turn is NOT_FOUND for an operator; a malformed id is VALIDATION_FAILED', async () => {
    const task = await api.gql<unknown>(tokens.op.token, TASK, { id: randomUUID() });
    const turn = await api.gql<unknown>(tokens.op.token, TURN, { id: randomUUID() });
    const malformed = await api.gql<unknown>(tokens.op.token, TASK, { id: 'task-1' });
    expect([codes(task), codes(turn), codes(malformed)]).toEqual([['NOT_FOUND'], ['NOT_FOUND'], ['VALIDATION_FAILED']]);
  });

  it("every operator read is logged with the operator's token, naming the workspace read", async () => {
    await api.gql<unknown>(tokens.op.token, TASK, { id: work.taskId });
    const logged = () =>
      api.lines.filter((l) => l.msg === OPERATOR_READ_MESSAGE && String(l.path).startsWith('operator'));
    await waitFor(
      () =>
        ['operatorTasks', 'operatorTaskInspection', 'operatorTurnInspection'].every((p) =>
          logged().some((l) => l.path === p),
        ),
      'operator read lines',
      10_000,
    );
    expect(logged().every((l) => l.tokenId === tokens.op.id)).toBe(true);
    expect(logged().find((l) => l.path === 'operatorTaskInspection')).toMatchObject({
      workspaceId: 'ws_a',
      streamId: `task-${work.taskId}`,
      operatorWorkspaceId: 'ops',
    });
  });
});
