import { rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { sendAndSettle } from './support/queries';
import { eventually, startStandaloneApi, type RunningApi } from './support/standalone-api';

// Extraction in the background (article §7.4): while the extraction model is down the person's
// turn still completes; the failed work is retried, then dead-lettered; an operator lists the dead
// letters and redrives them once the model is back, and the memory forms, once.

const DEAD = `query { memoryDeadLetters { topic offset eventType errorCode attempts } }`;
const REDRIVE = `mutation($confirm: Boolean!) { redriveMemoryDeadLetters(confirm: $confirm) { redriven failed { offset error } } }`;
const MEMORIES = `query { memories(scope: ALL) { edges { node { subject versions { version } } } } }`;

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
    // The turn completes while extraction is down: memory is never on a turn's path.
    await sendAndSettle(api, token, "Design our brand kit for the spring launch. Our brand's main colour is blue.");
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
