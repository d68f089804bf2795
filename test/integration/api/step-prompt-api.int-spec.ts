import { createHash, randomUUID } from 'node:crypto';
import * as path from 'node:path';
import { OPERATOR_READ_MESSAGE } from '@lomo/auth';
import { FilesystemBlobStore } from '@lomo/blobs';
import { waitFor } from '@lomo/bus/testing';
import { SYSTEM_RULES } from '@lomo/runtime';
import { SEND_MESSAGE, sendAndSettle } from './support/queries';
import { eventually, startStandaloneApi, type GraphqlResponse, type RunningApi } from './support/standalone-api';

const codeOf = (r: GraphqlResponse<unknown>) => r.errors?.[0]?.extensions?.code;
const LAYERS = ['PREFIX', 'HISTORY', 'RECENT', 'TAIL', 'INPUT'];

const STEPS = `query($id: ID!) {
  turn(id: $id) {
    steps {
      edges {
        node {
          turnId step
          context {
            layers { layer tokens messages }
            prefix { hash tokens changed profileVersion }
            tools { strategy domains sent }
            segmentIds budgetTokens promptTokens
          }
          prompt {
            layers { layer tokens messages { role content toolCalls { id name arguments } toolCallId } }
            tools { name definitionJson }
            allowedTools unavailable
          }
        }
      }
    }
  }
}`;
const TURN_STEP = `query($turn: ID!, $step: Int!) {
  turnStep(turnId: $turn, step: $step) { turnId step reply context { promptTokens } prompt { layers { layer messages { content } } unavailable } }
}`;
const TASK_CONTEXT = `query($id: ID!) {
  task(id: $id) {
    constraints { id subject statement itemId inForce withdrawnBy }
    toolDomains
    historySegments {
      id covers { from { turnId step } to { turnId step } steps }
      tokens summarizer supersedes supersededBy excluded shown
      textRef { hash } text textUnavailable
    }
    turns(first: 20) { edges { node { id steps { edges { node { step context { segmentIds } } } } } } }
  }
}`;

interface Layer {
  layer: string;
  tokens: number | null;
  messages: Array<{ role: string; content: string; toolCalls: unknown[]; toolCallId: string | null }>;
}
interface StepNode {
  turnId: string;
  step: number;
  context: {
    layers: Array<{ layer: string; tokens: number; messages: number }>;
    prefix: { hash: string; tokens: number; changed: string | null; profileVersion: number | null };
    tools: { strategy: string; domains: string[]; sent: number };
    segmentIds: string[];
    budgetTokens: number;
    promptTokens: number;
  } | null;
  prompt: {
    layers: Layer[] | null;
    tools: Array<{ name: string; definitionJson: string }> | null;
    allowedTools: string[] | null;
    unavailable: string | null;
  };
}
interface Segment {
  id: string;
  covers: { from: { turnId: string; step: number }; to: { turnId: string; step: number }; steps: number };
  tokens: number;
  summarizer: string;
  supersedes: string[];
  supersededBy: string | null;
  excluded: boolean;
  shown: boolean;
  textRef: { hash: string };
  text: string | null;
  textUnavailable: string | null;
}
interface TaskContext {
  task: {
    constraints: Array<{
      id: string;
      subject: string;
      statement: string;
      itemId: string;
      inForce: boolean;
      withdrawnBy: string | null;
    }>;
    toolDomains: string[];
    historySegments: Segment[];
    turns: {
      edges: Array<{
        node: { id: string; steps: { edges: Array<{ node: { step: number; context: { segmentIds: string[] } } }> } };
      }>;
    };
  };
}

// What the model saw at a step, over the real API of one standalone process with the offline
// model: a small context window (LOMO_MODEL_CONTEXT_TOKENS) makes history compress after a turn,
// so a few messages give the task summary segments.
describe('step.context, step.prompt and a task’s history segments over the API', () => {
  let api: RunningApi;
  const tokens: Record<'a' | 'b' | 'ci' | 'op', { id: string; token: string }> = {} as never;
  let work: Awaited<ReturnType<typeof sendAndSettle>>;

  const createToken = async (workspace: string, user: string, kind: string) => {
    const args = ['create', '--workspace', workspace, '--user', user, '--name', user, '--kind', kind];
    const result = await api.tokens(args);
    if (result.code !== 0) throw new Error(`lomo tokens create failed: ${result.stderr}`);
    return JSON.parse(result.stdout.trim()) as { id: string; token: string };
  };

  /** Sends a message to the task and waits until a committed step has read it and no turn runs. */
  const sendToTask = async (text: string) => {
    const sent = await api.gql<{ sendMessage: { messageId: string } }>(tokens.a.token, SEND_MESSAGE, {
      text,
      taskId: work.taskId,
    });
    expect(sent.errors).toBeUndefined();
    const messageId = sent.data!.sendMessage.messageId;
    await eventually(
      () =>
        api.gql<{
          task: {
            activeTurnId: string | null;
            inbox: { edges: Array<{ node: { id: string; consumedAt: { turnId: string } | null } }> };
          };
        }>(
          tokens.a.token,
          'query($id: ID!) { task(id: $id) { activeTurnId inbox(first: 50) { edges { node { id consumedAt { turnId } } } } } }',
          { id: work.taskId },
        ),
      (r) =>
        r.data?.task.activeTurnId === null &&
        r.data.task.inbox.edges.some((e) => e.node.id === messageId && e.node.consumedAt !== null),
      `a step read “${text}”`,
      30_000,
    );
    return messageId;
  };

  beforeAll(async () => {
    api = await startStandaloneApi({ LOMO_MODEL_CONTEXT_TOKENS: '1024' });
    [tokens.a, tokens.b, tokens.ci, tokens.op] = await Promise.all([
      createToken('ws_a', 'alice', 'person'),
      createToken('ws_b', 'bob', 'person'),
      createToken('ws_a', 'ci', 'integration'),
      createToken('ops', 'sam', 'operator'),
    ]);
    work = await sendAndSettle(api, tokens.a.token, 'Write a short poem about the sea. The background is white.');
  }, 120_000);

  afterAll(async () => {
    await api?.stop();
  });

  it('a step shows its five layers in order, what each cost, and the prompt read back: the prefix is the system rules and the tool definitions whose hash the step recorded', async () => {
    const read = await api.gql<{ turn: { steps: { edges: Array<{ node: StepNode }> } } }>(tokens.a.token, STEPS, {
      id: work.turnId,
    });
    expect(read.errors).toBeUndefined();
    const [first] = read.data!.turn.steps.edges.map((e) => e.node);
    expect(first).toMatchObject({ turnId: work.turnId, step: 1, prompt: { unavailable: null } });

    const context = first.context!;
    expect(context.layers.map((l) => l.layer)).toEqual(LAYERS);
    expect(context.prefix).toMatchObject({ hash: expect.stringMatching(/^[0-9a-f]{64}$/), changed: 'FIRST_STEP' });
    expect(context.tools).toMatchObject({ strategy: 'DYNAMIC', domains: expect.arrayContaining(['CORE']) });
    expect(context.promptTokens).toBe(context.layers.reduce((sum, l) => sum + l.tokens, 0));
    expect(context.budgetTokens).toBe(1024);

    const layers = first.prompt.layers!;
    expect(layers.map((l) => l.layer)).toEqual(LAYERS);
    // The archive and the accounting agree layer by layer.
    expect(layers.map((l) => [l.layer, l.tokens, l.messages.length])).toEqual(
      context.layers.map((l) => [l.layer, l.tokens, l.messages]),
    );
    const [prefix] = layers[0].messages;
    expect(prefix.role).toBe('SYSTEM');
    expect(prefix.content.startsWith(SYSTEM_RULES)).toBe(true);
    expect(layers[4].messages).toEqual([
      {
        role: 'USER',
        content: 'Write a short poem about the sea. The background is white.',
        toolCalls: [],
        toolCallId: null,
      },
    ]);
    expect(layers[3].messages[0].content).toContain('The background is white');

    // The definitions sent, exactly: with the first message they hash to the recorded prefix.
    const tools = first.prompt.tools!;
    expect(tools).toHaveLength(context.tools.sent);
    expect(tools.map((t) => t.name)).toContain('tools.load');
    for (const t of tools) expect(JSON.parse(t.definitionJson)).toMatchObject({ name: t.name });
    const sentBytes = `${prefix.content}\0[${tools.map((t) => t.definitionJson).join(',')}]`;
    expect(createHash('sha256').update(sentBytes).digest('hex')).toBe(context.prefix.hash);
    expect(first.prompt.allowedTools).toBeNull();
  });

  it('another workspace’s token gets NOT_FOUND and nothing else; a bad id is a typed error; an integration’s token may not read content; an operator reads it, logged', async () => {
    // B: the step of A's turn and a step of no turn at all answer alike.
    const asB = await api.gql<unknown>(tokens.b.token, TURN_STEP, { turn: work.turnId, step: 1 });
    const unknown = randomUUID();
    const none = await api.gql<unknown>(tokens.b.token, TURN_STEP, { turn: unknown, step: 1 });
    expect({ data: asB.data, codes: asB.errors?.map((e) => e.extensions?.code) }).toEqual({
      data: null,
      codes: ['NOT_FOUND'],
    });
    expect(JSON.stringify(asB.errors).replaceAll(work.turnId, 'ID')).toBe(
      JSON.stringify(none.errors).replaceAll(unknown, 'ID'),
    );
    for (const secret of ['poem', 'background', 'Lomo']) expect(JSON.stringify(asB)).not.toContain(secret);
    // Through `turn`, B finds no turn at all (a query of another workspace's id reads as null).
    const turnAsB = await api.gql<{ turn: unknown }>(tokens.b.token, STEPS, { id: work.turnId });
    expect({ data: turnAsB.data, errors: turnAsB.errors }).toEqual({ data: { turn: null }, errors: undefined });

    // Bad ids and steps are refused before anything is read.
    for (const variables of [
      { turn: 'not-a-turn', step: 1 },
      { turn: work.turnId, step: 0 },
    ]) {
      const bad = await api.gql<unknown>(tokens.a.token, TURN_STEP, variables);
      expect({ variables, data: bad.data, code: codeOf(bad) }).toEqual({
        variables,
        data: null,
        code: 'VALIDATION_FAILED',
      });
    }
    const badTurn = await api.gql<unknown>(tokens.a.token, STEPS, { id: 'not-a-turn' });
    expect(codeOf(badTurn)).toBe('VALIDATION_FAILED');
    const noStep = await api.gql<unknown>(tokens.a.token, TURN_STEP, { turn: work.turnId, step: 99 });
    expect({ data: noStep.data, code: codeOf(noStep) }).toEqual({ data: null, code: 'NOT_FOUND' });

    // A: the same step by its id.
    const own = await api.gql<{ turnStep: { reply: string; prompt: { layers: Layer[] } } }>(tokens.a.token, TURN_STEP, {
      turn: work.turnId,
      step: 1,
    });
    expect(own.errors).toBeUndefined();
    expect(own.data?.turnStep.prompt.layers.map((l) => l.layer)).toEqual(LAYERS);

    // An integration of A's workspace follows the turn's lifecycle, not what the model was sent.
    const asCi = await api.gql<unknown>(
      tokens.ci.token,
      'query($id: ID!) { turnStep(turnId: $id, step: 1) { step prompt { unavailable } } task(id: "' +
        work.taskId +
        '") { historySegments { id } } }',
      { id: work.turnId },
    );
    expect(asCi.errors?.map((e) => [e.extensions?.code, e.path?.join('.')]).sort()).toEqual([
      ['FORBIDDEN', 'task.historySegments'],
      ['FORBIDDEN', 'turnStep.prompt'],
    ]);
    expect(JSON.stringify(asCi)).not.toContain(SYSTEM_RULES.slice(0, 40));

    // An operator (a workspace of its own) reads A's step and prompt; each read is logged.
    const asOp = await api.gql<{ turnStep: { prompt: { layers: Layer[] } } }>(tokens.op.token, TURN_STEP, {
      turn: work.turnId,
      step: 1,
    });
    expect(asOp.errors).toBeUndefined();
    expect(asOp.data?.turnStep.prompt.layers[0].messages[0].content.startsWith(SYSTEM_RULES)).toBe(true);
    await waitFor(
      () =>
        ['turnStep', 'TurnStep.prompt'].every((p) =>
          api.lines.some(
            (l) =>
              l.msg === OPERATOR_READ_MESSAGE &&
              l.tokenId === tokens.op.id &&
              l.workspaceId === 'ws_a' &&
              l.streamId === `turn-${work.turnId}` &&
              l.path === p,
          ),
        ),
      'operator read lines',
      10_000,
    );
    expect(api.lines.filter((l) => l.msg === OPERATOR_READ_MESSAGE && l.tokenId !== tokens.op.id)).toEqual([]);
  });

  it('history segments name the steps they cover, which open; a corrected constraint is withdrawn and gone from what is shown; purged content reads as null with the reason', async () => {
    await sendToTask('Add a second verse about gulls.');
    const correction = await sendToTask('Now make the background dark blue.');
    await sendToTask('Add a title to the poem.');

    const read = await api.gql<TaskContext>(tokens.a.token, TASK_CONTEXT, { id: work.taskId });
    expect(read.errors).toBeUndefined();
    const { constraints, historySegments: segments, toolDomains, turns } = read.data!.task;

    // The constraint and its correction, each with the message it came from.
    expect(constraints.map((c) => [c.subject, c.statement, c.inForce])).toEqual([
      ['background', 'The background is white', false],
      ['background', 'Now make the background dark blue', true],
    ]);
    expect(constraints[0]).toMatchObject({ itemId: work.messageId, withdrawnBy: constraints[1].id });
    expect(constraints[1]).toMatchObject({ itemId: correction, withdrawnBy: null });
    expect(toolDomains).toEqual([]);

    // Segments were appended; each covers steps of the task's own turns, in order.
    const turnIds = turns.edges.map((e) => e.node.id);
    expect(segments.length).toBeGreaterThan(0);
    const ids = new Set(segments.map((s) => s.id));
    for (const s of segments) {
      expect(turnIds).toContain(s.covers.from.turnId);
      expect(turnIds).toContain(s.covers.to.turnId);
      expect(s.covers.steps).toBeGreaterThanOrEqual(1);
      expect(s).toMatchObject({ summarizer: 'EXTRACTIVE', textUnavailable: null, text: expect.any(String) });
      expect(s.shown).toBe(s.supersededBy === null && !s.excluded);
      for (const old of s.supersedes) expect(ids.has(old)).toBe(true);
      if (s.supersededBy !== null) expect(ids.has(s.supersededBy)).toBe(true);
    }
    // Shown or not: the correction superseded what stated the old constraint.
    expect(segments.some((s) => s.supersededBy !== null)).toBe(true);
    const shown = segments.filter((s) => s.shown);
    expect(shown.length).toBeGreaterThan(0);
    // The withdrawn statement reaches no segment still shown.
    for (const s of shown) expect(s.text).not.toContain('The background is white');

    // The latest step was shown exactly the shown segments.
    const latest = turns.edges[0].node.steps.edges.at(-1)!.node;
    expect(new Set(latest.context.segmentIds)).toEqual(new Set(shown.map((s) => s.id)));

    // A segment's source range opens step by step.
    const range = shown[0].covers;
    for (const point of [range.from, range.to]) {
      const opened = await api.gql<{ turnStep: { turnId: string; step: number; reply: string } }>(
        tokens.a.token,
        TURN_STEP,
        { turn: point.turnId, step: point.step },
      );
      expect(opened.errors).toBeUndefined();
      expect(opened.data?.turnStep).toMatchObject({
        turnId: point.turnId,
        step: point.step,
        reply: expect.any(String),
      });
    }

    // Forgetting deletes content from the BlobStore (no product path does it yet: the port's own
    // delete on the standalone's blob directory stands in). The events keep their references.
    const blobs = new FilesystemBlobStore(path.join(api.dataDir, 'blobs'));
    expect(await blobs.delete(shown[0].textRef.hash)).toBe(true);
    const events = await api.gql<{ events: { edges: Array<{ node: { type: string; dataJson: string } }> } }>(
      tokens.a.token,
      'query($s: String!) { events(streamId: $s, first: 100) { edges { node { type dataJson } } } }',
      { s: `turn-${work.turnId}` },
    );
    const committed = events.data!.events.edges.find((e) => e.node.type === 'ModelStepCommitted')!;
    const promptRef = (JSON.parse(committed.node.dataJson) as { promptRef: { hash: string } }).promptRef;
    expect(await blobs.delete(promptRef.hash)).toBe(true);

    const after = await api.gql<TaskContext>(tokens.a.token, TASK_CONTEXT, { id: work.taskId });
    expect(after.errors).toBeUndefined();
    expect(after.data?.task.historySegments.find((s) => s.id === shown[0].id)).toMatchObject({
      text: null,
      textUnavailable: 'PURGED',
      covers: range,
    });
    const purged = await api.gql<{ turnStep: { context: { promptTokens: number }; prompt: unknown } }>(
      tokens.a.token,
      TURN_STEP,
      { turn: work.turnId, step: 1 },
    );
    expect(purged.errors).toBeUndefined();
    expect(purged.data?.turnStep.prompt).toEqual({ layers: null, unavailable: 'PURGED' });
    expect(purged.data?.turnStep.context.promptTokens).toBeGreaterThan(0);
  });
});
