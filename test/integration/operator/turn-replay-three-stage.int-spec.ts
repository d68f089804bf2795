import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { FilesystemBlobStore } from '@lomo/blobs';
import { InProcessEventBus, KafkaEventBus, SqliteBusLog } from '@lomo/bus';
import { loadConfig } from '@lomo/config';
import { SqliteEventStore } from '@lomo/eventstore';
import { OfflineModelProvider, OpenAIModelProvider } from '@lomo/llm';
import { startFakeOpenAIServer, chatCompletionBody } from '@lomo/llm/testing';
import { silentLogger } from '@lomo/observability';
import { replaySetupFromConfig, replayTurn, type ReplayReport } from '@lomo/operator';
import { operatorCaller } from '@lomo/operator/testing';
import { HttpWebhookTransport } from '@lomo/webhooks';
import { jsonLines, runLomo, snapshotDirectory } from './support/run-lomo';
import { recordThreeStageBrief, type RecordedThreeStageBrief } from './support/three-stage-brief';

// Issue 20's first must-show, on the richest recorded scenario (article §8's three-stage brief on
// `npm start`'s offline model): `lomo turn replay` with the recorded replies reproduces every
// decision of every turn and reaches nothing outside (no provider, tool, bus, webhook; no byte
// of the data directory changes); a prompt patch that changes a scripted model's answer shows
// the divergence at the step it changed and stubs the calls no record has a result for.

/** An HTTP endpoint that only counts what reaches it: the webhook receiver the app delivered to. */
async function countingReceiver(): Promise<{ url: string; hits: () => number; close: () => Promise<void> }> {
  let hits = 0;
  const server: Server = createServer((req, res) => {
    hits += 1;
    req.resume();
    res.writeHead(204).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    hits: () => hits,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

interface RecordedStepOfTurn {
  step: number;
  reply: string;
  toolCalls: Array<{ name: string; arguments: Record<string, unknown> }>;
}

describe('lomo turn replay on the recorded three-stage brief', () => {
  let recorded: RecordedThreeStageBrief;
  let receiver: Awaited<ReturnType<typeof countingReceiver>>;
  let provider: Awaited<ReturnType<typeof startFakeOpenAIServer>>;
  let turns: string[];
  const work = mkdtempSync(path.join(tmpdir(), 'turn-replay-'));

  beforeAll(async () => {
    receiver = await countingReceiver();
    // The endpoint a `--model openai` replay would reach: a recorded replay must not.
    provider = await startFakeOpenAIServer(() => ({ body: chatCompletionBody({ content: 'unexpected' }) }));
    recorded = await recordThreeStageBrief({
      env: { LOMO_WEBHOOK_HTTP_ALLOWLIST: '127.0.0.1' },
      whileRunning: async ({ api }) => {
        const registered = await api.gql<{ registerWebhook: { webhook: { id: string } } }>(
          api.devToken,
          'mutation($url: String!) { registerWebhook(url: $url, eventTypes: ["ModelStepCommitted", "ToolCallCompleted"]) { webhook { id } } }',
          { url: receiver.url },
        );
        expect(registered.errors).toBeUndefined();
      },
    });
    const store = new SqliteEventStore({ filename: path.join(recorded.dataDir, 'events.sqlite') });
    try {
      turns = (await store.readStream(`task-${recorded.taskId}`))
        .filter((e) => e.type === 'TurnOpened')
        .map((e) => (e.data as { turnId: string }).turnId);
    } finally {
      await store.close();
    }
  }, 300_000);
  afterAll(async () => {
    await receiver?.close();
    await provider?.close();
    if (recorded !== undefined) rmSync(recorded.dataDir, { recursive: true, force: true });
    rmSync(work, { recursive: true, force: true });
  });

  const lomo = (args: string[]) =>
    runLomo(
      ['--json', '--token', recorded.operator, 'turn', 'replay', ...args],
      // A configured endpoint is there to be reached by mistake: the recorded replay must not.
      {
        LOMO_DATA_DIR: recorded.dataDir,
        LOMO_MODE: 'embedded',
        OPENAI_BASE_URL: provider.baseUrl,
        OPENAI_API_KEY: 'test-key',
      },
      { dist: true },
    );

  /** Each committed step of a turn as recorded: its reply and tool-call intents. */
  async function recordedSteps(turnId: string): Promise<RecordedStepOfTurn[]> {
    const store = new SqliteEventStore({ filename: path.join(recorded.dataDir, 'events.sqlite') });
    try {
      return (await store.readStream(`turn-${turnId}`))
        .filter((e) => e.type === 'ModelStepCommitted')
        .map((e) => {
          const d = e.data as {
            step: number;
            reply: string;
            toolCallIntents: Array<{ tool: string; arguments: Record<string, unknown> }>;
          };
          return {
            step: d.step,
            reply: d.reply,
            toolCalls: d.toolCallIntents.map((c) => ({ name: c.tool, arguments: c.arguments })),
          };
        });
    } finally {
      await store.close();
    }
  }

  it('with the recorded replies reproduces every decision of every turn, with zero external calls and zero appends', async () => {
    const before = snapshotDirectory(recorded.dataDir);
    const hitsBefore = receiver.hits();
    expect(hitsBefore).toBeGreaterThan(0); // the app did deliver to it while it ran
    expect(turns.length).toBeGreaterThanOrEqual(2);

    let steps = 0;
    for (const turnId of turns) {
      const run = await lomo([turnId]);
      expect({ code: run.code, stderr: run.code === 0 ? '' : run.stderr }).toEqual({ code: 0, stderr: '' });
      const [report] = jsonLines<ReplayReport>(run.stdout);
      expect(report.turnId).toBe(turnId);
      expect(report.model).toBe('recorded');
      expect({ turnId, divergedAt: report.divergedAt, driftAt: report.driftAt }).toEqual({
        turnId,
        divergedAt: null,
        driftAt: null,
      });
      for (const step of report.steps) {
        expect({
          step: step.step,
          status: step.status,
          context: step.context?.status,
          diverged: step.diverged,
        }).toEqual({
          step: step.step,
          status: 'replayed',
          context: 'reproduced',
          diverged: false,
        });
        expect(step.reply.equal).toBe(true);
        for (const call of step.toolCalls) expect(call.status).toBe('reused');
      }
      steps += report.steps.length;
    }
    expect(steps).toBeGreaterThanOrEqual(4);

    // Nothing reached: no provider request, no webhook delivery, not one byte of the data
    // directory (event log, bus log, blobs, read models, tool stores) changed.
    expect(provider.requests).toHaveLength(0);
    expect(receiver.hits()).toBe(hitsBefore);
    expect(snapshotDirectory(recorded.dataDir)).toEqual(before);
  }, 180_000);

  it('in process, spies on every provider, tool, bus publisher and webhook sender see no call', async () => {
    const config = loadConfig({ LOMO_DATA_DIR: recorded.dataDir });
    const setup = replaySetupFromConfig(config, silentLogger);
    const spies = [
      jest.spyOn(OfflineModelProvider.prototype, 'complete'),
      jest.spyOn(OpenAIModelProvider.prototype, 'complete'),
      ...setup.tools.list().map((tool) => jest.spyOn(tool, 'run')),
      jest.spyOn(InProcessEventBus.prototype, 'publish'),
      jest.spyOn(KafkaEventBus.prototype, 'publish'),
      jest.spyOn(SqliteBusLog.prototype, 'append'),
      jest.spyOn(HttpWebhookTransport.prototype, 'send'),
      jest.spyOn(SqliteEventStore.prototype, 'append'),
      jest.spyOn(FilesystemBlobStore.prototype, 'put'),
      jest.spyOn(FilesystemBlobStore.prototype, 'delete'),
      jest.spyOn(globalThis, 'fetch'),
    ];
    const events = new SqliteEventStore({ filename: path.join(recorded.dataDir, 'events.sqlite') });
    const blobs = new FilesystemBlobStore(path.join(recorded.dataDir, 'blobs'));
    try {
      for (const turnId of turns) {
        const report = await replayTurn({ events, blobs }, operatorCaller, turnId, { model: 'recorded' }, setup);
        expect(report.divergedAt).toBeNull();
        expect(report.driftAt).toBeNull();
      }
      for (const spy of spies) expect(spy).not.toHaveBeenCalled();
    } finally {
      for (const spy of spies) spy.mockRestore();
      await events.close();
    }
  }, 120_000);

  it('a prompt patch that changes the scripted model’s answer shows the divergence at that step, and later calls without a recorded result are stubbed', async () => {
    // The first turn with at least two steps; its answer changes at step 2 when the patched rule is read.
    let turnId: string | undefined;
    let steps: RecordedStepOfTurn[] = [];
    for (const t of turns) {
      steps = await recordedSteps(t);
      if (steps.length >= 2) {
        turnId = t;
        break;
      }
    }
    expect(turnId).toBeDefined();
    const RULE = 'Before anything else, keep a note of every decision.';
    const patchFile = path.join(work, 'rule.json');
    writeFileSync(
      patchFile,
      JSON.stringify({ patches: [{ layer: 'prefix', find: 'You are Lomo', replace: `${RULE} You are Lomo` }] }),
    );
    // Step 1 as recorded; step 2, when the prompt carries the rule, a note no record has a result for.
    const scriptFile = path.join(work, 'script.json');
    const asReply = (s: RecordedStepOfTurn) => ({ text: s.reply, toolCalls: s.toolCalls });
    writeFileSync(
      scriptFile,
      JSON.stringify({
        steps: steps.map((s) =>
          s.step === 2
            ? {
                when: { promptContains: RULE },
                reply: { text: '', toolCalls: [{ name: 'notes.create', arguments: { title: 'decisions' } }] },
                otherwise: asReply(s),
              }
            : { reply: asReply(s) },
        ),
      }),
    );
    const before = snapshotDirectory(recorded.dataDir);

    const patched = await lomo([turnId!, '--model', 'scripted', '--script', scriptFile, '--prompt-patch', patchFile]);
    const unpatched = await lomo([turnId!, '--model', 'scripted', '--script', scriptFile]);

    expect(patched.code).toBe(0);
    const [report] = jsonLines<ReplayReport>(patched.stdout);
    expect(report.divergedAt).toBe(2);
    expect(report.steps[0]).toMatchObject({ status: 'replayed', diverged: false });
    expect(report.steps[1]).toMatchObject({ status: 'replayed', diverged: true, context: { status: 'reproduced' } });
    expect(report.steps[1].patched).toEqual(['layer prefix: "You are Lomo"']);
    expect(report.steps[1].toolCalls.filter((c) => c.status === 'stubbed')).toEqual([
      { callId: null, tool: 'notes.create', recorded: null, replayed: { title: 'decisions' }, status: 'stubbed' },
    ]);
    // What step 2 recorded and did not happen, and every later step, are not replayed.
    for (const call of report.steps[1].toolCalls.filter((c) => c.recorded !== null))
      expect(call.status).toBe('not_called');
    for (const later of report.steps.slice(2)) expect(later.status).toBe('not_replayed');
    // Without the patch the same script follows the record.
    expect(unpatched.code).toBe(0);
    expect(jsonLines<ReplayReport>(unpatched.stdout)[0].divergedAt).toBeNull();
    expect(provider.requests).toHaveLength(0);
    expect(snapshotDirectory(recorded.dataDir)).toEqual(before);
  }, 120_000);

  it('--model openai asks the configured OpenAI-compatible endpoint (a local wire-format server) with the rebuilt prompt, and diffs its answer', async () => {
    const before = snapshotDirectory(recorded.dataDir);
    const asked = provider.requests.length;

    const run = await lomo([turns[0], '--model', 'openai']);

    expect({ code: run.code, stderr: run.code === 0 ? '' : run.stderr }).toEqual({ code: 0, stderr: '' });
    const [report] = jsonLines<ReplayReport>(run.stdout);
    // The endpoint answers text where the record called a tool: step 1 diverges, nothing after it is asked.
    expect(report.divergedAt).toBe(1);
    expect(report.steps[0]).toMatchObject({ status: 'replayed', context: { status: 'reproduced' } });
    expect(report.steps[0].reply.replayed).toBe('unexpected');
    expect(report.steps.slice(1).every((s) => s.status === 'not_replayed')).toBe(true);
    const sent = provider.requests.slice(asked);
    expect(sent).toHaveLength(1);
    expect(sent[0].path).toMatch(/chat\/completions$/);
    expect(sent[0].raw.toString('utf8')).toContain('You are Lomo');
    expect(snapshotDirectory(recorded.dataDir)).toEqual(before);
  }, 120_000);
});
