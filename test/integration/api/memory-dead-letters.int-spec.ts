import { rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { SEND_MESSAGE } from './support/queries';
import { eventually, startStandaloneApi, type RunningApi } from './support/standalone-api';

// Extraction in the background (article §7.4): while the extraction model is down the person's
// turn still completes; the failed work is retried, then dead-lettered; an operator lists the dead
// letters and redrives them once the model is back, and the memory forms, once.

const DEAD = `query { memoryDeadLetters { topic offset eventType errorCode attempts } }`;
const REDRIVE = `mutation($confirm: Boolean!) { redriveMemoryDeadLetters(confirm: $confirm) { redriven failed { offset error } } }`;
const MEMORIES = `query { memories(scope: ALL) { edges { node { subject versions { version } } } } }`;
const TURNS = 'query($id: ID!) { task(id: $id) { turns(first: 5) { edges { node { status } } } } }';

describe('memory dead letters: a failing extraction never blocks a turn, and an operator redrives it', () => {
  let api: RunningApi;
  let operator: string;

  beforeAll(async () => {
    api = await startStandaloneApi(
      { LOMO_BUS_MAX_ATTEMPTS: '2' },
      { entry: 'test/integration/api/support/standalone-with-extractor-down.ts', keepDataDir: true },
    );
    const created = await api.tokens(['create', '--workspace', 'ops', '--user', 'sam', '--kind', 'operator']);
    if (created.code !== 0) throw new Error(`tokens create failed: ${created.stderr}`);
    operator = (JSON.parse(created.stdout.trim()) as { token: string }).token;
  }, 120_000);
  afterAll(async () => {
    await api?.stop();
    if (api !== undefined) rmSync(api.dataDir, { recursive: true, force: true });
  });

  it('dead-letters the extraction while its model is down, the turn completes anyway, and a redrive forms the memory once', async () => {
    const flag = path.join(api.dataDir, 'extractor-down');
    writeFileSync(flag, 'down');
    const token = api.devToken;
    const sent = await api.gql<{ sendMessage: { messageId: string } }>(token, SEND_MESSAGE, {
      text: "Design our brand kit for the spring launch. Our brand's main colour is blue.",
    });
    const messageId = sent.data!.sendMessage.messageId;
    const routed = await eventually(
      () =>
        api.gql<{ message: { routing: { taskId: string | null } | null } | null }>(
          token,
          'query($id: ID!) { message(id: $id) { routing { taskId } } }',
          { id: messageId },
        ),
      (r) => r.data?.message?.routing?.taskId != null,
      'routing',
    );
    const taskId = routed.data!.message!.routing!.taskId!;
    await eventually(
      () => api.gql<{ task: { turns: { edges: Array<{ node: { status: string } }> } } }>(token, TURNS, { id: taskId }),
      (r) => r.data?.task.turns.edges.some((e) => e.node.status === 'COMPLETED') === true,
      'the turn completed while extraction is down',
    );
    const dead = await eventually(
      () =>
        api.gql<{ memoryDeadLetters: Array<{ eventType: string; errorCode: string; attempts: number }> }>(
          operator,
          DEAD,
        ),
      (r) => (r.data?.memoryDeadLetters.length ?? 0) > 0,
      'a memory dead letter',
      30_000,
    );
    expect(dead.data!.memoryDeadLetters[0]).toMatchObject({
      eventType: 'MessageDeliveredToInbox',
      errorCode: 'MODEL_UNAVAILABLE',
      attempts: 2,
    });
    const none = await api.gql<{ memories: { edges: unknown[] } }>(token, MEMORIES);
    expect(none.data!.memories.edges).toEqual([]);

    // Only an operator, and only with confirm.
    expect((await api.gql(token, DEAD)).errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    expect((await api.gql(token, REDRIVE, { confirm: true })).errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    expect((await api.gql(operator, REDRIVE, { confirm: false })).errors?.[0]?.extensions?.code).toBe(
      'VALIDATION_FAILED',
    );

    // Still down: the redrive fails again and says so; nothing forms.
    const failed = await api.gql<{ redriveMemoryDeadLetters: { redriven: number; failed: unknown[] } }>(
      operator,
      REDRIVE,
      {
        confirm: true,
      },
    );
    expect(failed.data!.redriveMemoryDeadLetters).toMatchObject({ redriven: 0, failed: [expect.anything()] });

    rmSync(flag);
    const redriven = await api.gql<{ redriveMemoryDeadLetters: { redriven: number; failed: unknown[] } }>(
      operator,
      REDRIVE,
      { confirm: true },
    );
    expect(redriven.data!.redriveMemoryDeadLetters).toEqual({ redriven: 1, failed: [] });
    const formed = await eventually(
      () =>
        api.gql<{ memories: { edges: Array<{ node: { subject: string; versions: unknown[] } }> } }>(token, MEMORIES),
      (r) => (r.data?.memories.edges.length ?? 0) > 0,
      'the memory formed after the redrive',
    );
    expect(formed.data!.memories.edges.map((e) => [e.node.subject, e.node.versions.length])).toEqual([
      ['brand.colour.main', 1],
    ]);
    // A second redrive repeats idempotent work: still one memory, one version.
    await api.gql(operator, REDRIVE, { confirm: true });
    const again = await api.gql<{ memories: { edges: Array<{ node: { versions: unknown[] } }> } }>(token, MEMORIES);
    expect(again.data!.memories.edges.map((e) => e.node.versions.length)).toEqual([1]);
  }, 120_000);
});
