import { randomUUID } from 'node:crypto';
import { OPERATOR_READ_MESSAGE } from '@lomo/auth';
import { waitFor } from '@lomo/bus/testing';
import { sendAndSettle } from './support/queries';
import { startStandaloneApi, type GraphqlResponse, type RunningApi } from './support/standalone-api';

const codes = (r: GraphqlResponse<unknown>) => r.errors?.map((e) => e.extensions?.code);

const TEXT = 'text purged purgedReason';
const REPLAY = `query($turnId: ID!, $options: ReplayTurnOptions) {
  replayTurn(turnId: $turnId, options: $options) {
    turnId taskId workspaceId model divergedAt driftAt
    steps {
      step status diverged patched
      error { code message }
      context { status rebuiltHash storedHash firstDifferingLayer }
      forgotten { flagged reason }
      concurrent { type at }
      reply { recorded { ${TEXT} } replayed { ${TEXT} } equal }
      toolCalls {
        callId tool status
        recordedArguments { ${TEXT} } replayedArguments { ${TEXT} }
        outcome { status resultJson reason purged job { jobId } }
      }
    }
  }
}`;

interface Text {
  text: string | null;
  purged: boolean;
  purgedReason: string | null;
}
interface Report {
  turnId: string;
  taskId: string;
  workspaceId: string;
  model: string;
  divergedAt: number | null;
  driftAt: number | null;
  steps: Array<{
    step: number;
    status: string;
    diverged: boolean;
    patched: string[];
    error: { code: string; message: string } | null;
    context: { status: string; rebuiltHash: string; storedHash: string | null; firstDifferingLayer: string | null };
    reply: { recorded: Text; replayed: Text | null; equal: boolean };
    toolCalls: Array<{
      callId: string | null;
      tool: string;
      status: string;
      recordedArguments: Text | null;
      replayedArguments: Text | null;
      outcome: { status: string | null; resultJson: string | null; purged: boolean } | null;
    }>;
  }>;
}

/** The head position once it has stopped moving (memory extraction and projections settle after a turn). */
async function quietHead(api: RunningApi): Promise<string | undefined> {
  let last = await api.headPosition();
  let stableSince = Date.now();
  await waitFor(
    async () => {
      const now = await api.headPosition();
      if (now !== last) {
        last = now;
        stableSince = Date.now();
      }
      return Date.now() - stableSince >= 2_000;
    },
    'a quiet event store',
    30_000,
    250,
  );
  return last;
}

/** Replaces the system rules' opening sentence: every step's prefix reads the new rule. */
const PATCH = JSON.stringify({
  patches: [
    {
      layer: 'prefix',
      find: 'You are Lomo, an agent working on one task for one person over many steps.',
      replace: 'You are Lomo, an agent working on one task for one person over many steps. Answer in one word.',
    },
  ],
});

describe('replayTurn over GraphQL (operator tokens only, side-effect free)', () => {
  let api: RunningApi;
  const tokens: Record<'person' | 'ci' | 'op', { id: string; token: string }> = {} as never;
  let work: { taskId: string; turnId: string };

  const createToken = async (workspace: string, user: string, kind: string) => {
    const result = await api.tokens([
      'create',
      '--workspace',
      workspace,
      '--user',
      user,
      '--name',
      user,
      '--kind',
      kind,
    ]);
    if (result.code !== 0) throw new Error(`lomo tokens create failed: ${result.stderr}`);
    return JSON.parse(result.stdout.trim()) as { id: string; token: string };
  };
  const replay = (token: string, turnId: string, options?: Record<string, unknown>) =>
    api.gql<{ replayTurn: Report }>(token, REPLAY, { turnId, ...(options !== undefined ? { options } : {}) });

  beforeAll(async () => {
    api = await startStandaloneApi();
    [tokens.person, tokens.ci, tokens.op] = await Promise.all([
      createToken('ws_a', 'alice', 'person'),
      createToken('ws_a', 'ci', 'integration'),
      createToken('ops', 'sam', 'operator'),
    ]);
    // The offline model takes the note with notes.create, then answers with a summary: two steps.
    work = await sendAndSettle(api, tokens.person.token, 'Please take a note: buy oat milk');
  }, 120_000);

  afterAll(async () => {
    await api?.stop();
  });

  it('with the recorded replies, every step is reproduced and not diverged, its calls reuse their recorded outcomes, and the store is left as it was', async () => {
    const head = await quietHead(api);

    const read = await replay(tokens.op.token, work.turnId);

    expect(read.errors).toBeUndefined();
    const report = read.data!.replayTurn;
    expect(report).toMatchObject({
      turnId: work.turnId,
      taskId: work.taskId,
      workspaceId: 'ws_a',
      model: 'recorded',
      divergedAt: null,
      driftAt: null,
    });
    expect(report.steps.length).toBeGreaterThanOrEqual(2);
    for (const step of report.steps) {
      expect(step).toMatchObject({ status: 'REPLAYED', diverged: false, patched: [], error: null });
      expect(step.context.status).toBe('REPRODUCED');
      expect(step.context.rebuiltHash).toBe(step.context.storedHash);
      expect(step.reply.equal).toBe(true);
      expect(step.reply.replayed).toEqual(step.reply.recorded);
      for (const call of step.toolCalls) {
        expect(call.status).toBe('REUSED');
        expect(call.replayedArguments).toEqual(call.recordedArguments);
        expect(call.outcome).toMatchObject({ status: 'ok', purged: false });
      }
    }
    const first = report.steps[0].toolCalls[0];
    expect(first).toMatchObject({ callId: `${work.turnId}:1:0`, tool: 'notes.create' });
    expect(JSON.parse(first.recordedArguments!.text!) as unknown).toEqual(expect.any(Object));
    // Only step 2, when asked
    const one = await replay(tokens.op.token, work.turnId, { step: 2, model: 'RECORDED' });
    expect(one.data?.replayTurn.steps.map((s) => [s.step, s.status])).toEqual([[2, 'REPLAYED']]);
    // The offline model, asked again with the rebuilt prompts, decides as it did
    const offline = await replay(tokens.op.token, work.turnId, { model: 'OFFLINE' });
    expect(offline.errors).toBeUndefined();
    expect(offline.data?.replayTurn).toMatchObject({ model: 'offline', divergedAt: null, driftAt: null });

    // Nothing was appended
    expect(await api.headPosition()).toBe(head);
  });

  it('with a prompt patch and a scripted model that reads it, the diff shows the divergence at step 2; without the patch the same script follows the record', async () => {
    const recorded = (await replay(tokens.op.token, work.turnId)).data!.replayTurn.steps;
    const replyOf = (step: Report['steps'][number]) => ({
      text: step.reply.recorded.text ?? '',
      toolCalls: step.toolCalls.map((c) => ({
        name: c.tool,
        arguments: JSON.parse(c.recordedArguments!.text!) as Record<string, unknown>,
      })),
    });
    // Step 1 as recorded; step 2 answers in one word when its prompt holds the patched rule.
    const script = JSON.stringify({
      steps: recorded.map((step) =>
        step.step === 2
          ? { when: { promptContains: 'Answer in one word.' }, reply: { text: 'Noted.' }, otherwise: replyOf(step) }
          : { reply: replyOf(step) },
      ),
    });
    const head = await quietHead(api);

    const patched = await replay(tokens.op.token, work.turnId, { model: 'SCRIPTED', script, promptPatch: PATCH });
    const unpatched = await replay(tokens.op.token, work.turnId, { model: 'SCRIPTED', script });

    expect(patched.errors).toBeUndefined();
    const report = patched.data!.replayTurn;
    expect(report).toMatchObject({ model: 'scripted', divergedAt: 2, driftAt: null });
    expect(report.steps[0]).toMatchObject({ step: 1, status: 'REPLAYED', diverged: false });
    expect(report.steps[0].patched).toHaveLength(1);
    expect(report.steps[1]).toMatchObject({
      step: 2,
      status: 'REPLAYED',
      diverged: true,
      context: { status: 'REPRODUCED' },
      reply: { replayed: { text: 'Noted.', purged: false }, equal: false },
    });
    expect(report.steps[1].patched[0]).toContain('layer prefix');
    for (const later of report.steps.slice(2)) expect(later.status).toBe('NOT_REPLAYED');
    expect(unpatched.errors).toBeUndefined();
    expect(unpatched.data?.replayTurn.divergedAt).toBeNull();
    expect(await api.headPosition()).toBe(head);
  });

  it("a person's or an integration's token, even of the turn's own workspace, is FORBIDDEN and nothing of the turn comes back", async () => {
    for (const token of [tokens.person.token, tokens.ci.token]) {
      const refused = await replay(token, work.turnId);

      expect({ data: refused.data, codes: codes(refused) }).toEqual({ data: null, codes: ['FORBIDDEN'] });
      expect(JSON.stringify(refused)).not.toContain('oat milk');
    }
  });

  it('bad input is refused with its code and changes nothing: an unknown turn, a step beyond the turn, a malformed patch or script, a model that cannot be used', async () => {
    const head = await quietHead(api);
    const op = tokens.op.token;
    const cases: Array<readonly [string, Promise<GraphqlResponse<unknown>>, string]> = [
      ['unknown turn', replay(op, randomUUID()), 'NOT_FOUND'],
      ['malformed turn id', replay(op, 'turn-1'), 'VALIDATION_FAILED'],
      ['step beyond', replay(op, work.turnId, { step: 99 }), 'STEP_BEYOND_TURN'],
      ['step 0', replay(op, work.turnId, { step: 0 }), 'STEP_BEYOND_TURN'],
      ['patch not JSON', replay(op, work.turnId, { promptPatch: '{"patches": [' }), 'BAD_PROMPT_PATCH'],
      [
        'patch of an unknown layer',
        replay(op, work.turnId, { promptPatch: '{"patches":[{"layer":"footer","find":"a","replace":"b"}]}' }),
        'BAD_PROMPT_PATCH',
      ],
      ['script not JSON', replay(op, work.turnId, { model: 'SCRIPTED', script: 'steps:' }), 'BAD_REPLAY_SCRIPT'],
      ['scripted without a script', replay(op, work.turnId, { model: 'SCRIPTED' }), 'BAD_REPLAY_MODEL'],
      [
        'a script for another model',
        replay(op, work.turnId, { model: 'OFFLINE', script: '{"steps":[{"reply":{}}]}' }),
        'BAD_REPLAY_MODEL',
      ],
      // OPENAI with no endpoint configured (only checked where the environment configures none).
      ...(process.env.OPENAI_BASE_URL === undefined && process.env.OPENAI_API_KEY === undefined
        ? [['openai unconfigured', replay(op, work.turnId, { model: 'OPENAI' }), 'BAD_REPLAY_MODEL'] as const]
        : []),
      // Not an enum value: refused by GraphQL's own coercion before the resolver runs.
      ['an unknown model', replay(op, work.turnId, { model: 'GPT5' }), 'BAD_USER_INPUT'],
    ];
    for (const [name, request, code] of cases) {
      const refused = await request;
      expect({ name, data: refused.data ?? null, codes: codes(refused) }).toEqual({ name, data: null, codes: [code] });
    }
    expect(await api.headPosition()).toBe(head);
  });

  it("every replay is logged as an operator read with the operator's token, naming the workspace and the turn", async () => {
    const logged = () => api.lines.filter((l) => l.msg === OPERATOR_READ_MESSAGE && l.path === 'replayTurn');
    await waitFor(() => logged().length > 0, 'a replayTurn read line', 10_000);
    expect(logged()[0]).toMatchObject({
      tokenId: tokens.op.id,
      workspaceId: 'ws_a',
      streamId: `turn-${work.turnId}`,
      operatorWorkspaceId: 'ops',
    });
  });
});
