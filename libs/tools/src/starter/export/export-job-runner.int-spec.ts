import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { streams, WAKE_UP_TOPIC, type EventEnvelope } from '@lomo/contracts';
import { SqliteEventStore } from '@lomo/eventstore';
import { FilesystemBlobStore, type BlobStore } from '@lomo/blobs';
import type { EventBus, OutgoingMessage } from '@lomo/bus';
import { ExportJobRunner, exportJobIdFor, type ExportJobRunnerOptions } from './export-job-runner';
import { SqliteExportJobStore } from './sqlite-export-job-store';
import { exportDocumentTool } from './export-document-tool';
import { renderExport } from './render-export';
import { toolCompletionEventId } from '../../async/tool-completion';
import { ToolRegistry } from '../../registry/tool-registry';
import { ManualTimer } from '../../testing/manual-timer';
import { makeToolContext, TEST_TASK_ID, TEST_TURN_ID, TEST_WORKSPACE_ID } from '../../testing/tool-context';
import { seedStartedCall } from '../../testing/started-call';

const DURATION_MS = 30_000;
const ARGS = { title: 'Campaign brief', format: 'markdown', content: 'Spring shoot, three looks.' };

describe('export.document and the ExportJobRunner', () => {
  let dir: string;
  let clock: ManualTimer;
  let events: SqliteEventStore;
  let blobs: FilesystemBlobStore;
  let published: Array<{ topic: string; message: OutgoingMessage }>;
  let bus: Pick<EventBus, 'publish'>;
  let jobStores: SqliteExportJobStore[];
  let runners: ExportJobRunner[];
  const errors: unknown[] = [];

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'lomo-export-'));
    clock = new ManualTimer('2026-11-30T09:00:00.000Z');
    events = new SqliteEventStore({ filename: join(dir, 'events.sqlite'), now: () => clock.now() });
    blobs = new FilesystemBlobStore(join(dir, 'blobs'));
    published = [];
    bus = {
      publish: async (topic, messages) => {
        for (const message of messages) published.push({ topic, message });
      },
    };
    jobStores = [];
    runners = [];
    errors.length = 0;
  });

  afterEach(async () => {
    await Promise.all(runners.map((r) => r.stop()));
    await Promise.all(jobStores.map((s) => s.close()));
    await events.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A runner as a fresh process would build it: its own connection to the job file. */
  async function startRunner(options: Partial<ExportJobRunnerOptions> = {}): Promise<ExportJobRunner> {
    const jobs = SqliteExportJobStore.open({ filename: join(dir, 'tools.sqlite') });
    jobStores.push(jobs);
    const runner = new ExportJobRunner({
      jobs,
      events,
      blobs,
      bus,
      clock,
      timer: clock,
      durationMs: DURATION_MS,
      retryDelayMs: 1_000,
      onError: (error) => errors.push(error),
      ...options,
    });
    runners.push(runner);
    await runner.start();
    return runner;
  }

  const context = makeToolContext({ correlationId: 'corr-export-1' });

  async function invokeExport(runner: ExportJobRunner) {
    // The runtime records the call's start before a tool runs; the completion is decided against it.
    await seedStartedCall(events, context, 'export.document', clock);
    const registry = new ToolRegistry([exportDocumentTool(runner)]);
    return registry.invoke('export.document', JSON.stringify(ARGS), { ...context, clock });
  }

  const completions = async (): Promise<EventEnvelope[]> =>
    (await events.readStream(streams.turn(TEST_TURN_ID))).filter((e) => e.type === 'ToolCallCompleted');

  async function advance(ms: number, ...toSettle: ExportJobRunner[]) {
    clock.advance(ms);
    await Promise.all(toSettle.map((r) => r.idle()));
  }

  const expectedDocument = renderExport({ title: ARGS.title, format: 'markdown', content: ARGS.content });

  it('answers pending at once and appends the completion, with a blob and a wake-up, when the work is done', async () => {
    const runner = await startRunner();
    expect(await invokeExport(runner)).toEqual({
      status: 'pending',
      note: `export job ${exportJobIdFor(TEST_WORKSPACE_ID, context.callId)} is pending`,
    });
    await advance(DURATION_MS - 1, runner);
    expect(await completions()).toEqual([]);

    await advance(1, runner);
    const [completion, ...more] = await completions();
    expect(more).toEqual([]);
    const bytes = Buffer.byteLength(expectedDocument.content);
    expect(completion.data).toEqual({
      callId: context.callId,
      status: 'ok',
      result: { blobHash: expect.stringMatching(/^[0-9a-f]{64}$/), bytes },
    });
    expect(completion.metadata).toMatchObject({
      eventId: toolCompletionEventId(context.callId),
      correlationId: 'corr-export-1',
      causationId: null,
      workspaceId: TEST_WORKSPACE_ID,
      actor: { kind: 'system', component: 'export-runner' },
    });
    const { result } = completion.data as { result: { blobHash: string } };
    const stored = await blobs.get(result.blobHash);
    expect(stored?.toString('utf8')).toBe(expectedDocument.content);
    expect(published).toEqual([
      {
        topic: WAKE_UP_TOPIC,
        message: {
          key: TEST_TASK_ID,
          value: {
            kind: 'wake',
            workspaceId: TEST_WORKSPACE_ID,
            taskId: TEST_TASK_ID,
            turnId: TEST_TURN_ID,
            reason: 'job_completed',
          },
          // The woken worker continues the call's trace; the completion is the wake's cause.
          headers: { correlationId: 'corr-export-1', causationId: toolCompletionEventId(context.callId) },
        },
      },
    ]);
    expect(errors).toEqual([]);
  });

  it('joins the running job when the same call is made again (idempotent by key)', async () => {
    const runner = await startRunner();
    await invokeExport(runner);
    await advance(DURATION_MS / 2, runner);
    await invokeExport(runner);
    await advance(DURATION_MS / 2, runner);
    expect(await completions()).toHaveLength(1);
    await advance(DURATION_MS, runner);
    // A call repeated after completion finds the finished job and appends nothing new.
    expect(await invokeExport(runner)).toMatchObject({ status: 'pending', note: expect.stringContaining('completed') });
    await advance(DURATION_MS, runner);
    expect(await completions()).toHaveLength(1);
    expect(published).toHaveLength(1);
  });

  it('resumes an unfinished job after a restart and completes it exactly once, on its original schedule', async () => {
    const first = await startRunner();
    await invokeExport(first);
    await advance(10_000, first);
    await first.stop();

    const second = await startRunner();
    await advance(DURATION_MS - 10_000 - 1, second);
    expect(await completions()).toEqual([]);
    await advance(1, second);
    expect((await completions()).map((e) => e.metadata.eventId)).toEqual([toolCompletionEventId(context.callId)]);
    expect(published).toHaveLength(1);
  });

  it('writes one completion when the runner dies after appending it and a restarted one finishes the job again', async () => {
    let release!: () => void;
    const hang = new Promise<void>((resolve) => (release = resolve));
    const crashed = await startRunner({ hooks: { afterCompletionAppended: () => hang } });
    await invokeExport(crashed);
    clock.advance(DURATION_MS);
    await waitUntil(async () => (await completions()).length === 1);
    expect(published).toEqual([]);

    // The crashed process never marked the job done; a new one takes it up at once.
    const restarted = await startRunner();
    await advance(0, restarted);
    const jobs = jobStores[1];
    expect((await jobs.get(exportJobIdFor(TEST_WORKSPACE_ID, context.callId)))?.status).toBe('completed');
    expect(published).toHaveLength(1);

    release();
    await crashed.idle();
    const all = await completions();
    expect(all).toHaveLength(1);
    expect(all[0].metadata.eventId).toBe(toolCompletionEventId(context.callId));
    // A duplicate wake-up is harmless; a duplicate completion would not be.
    expect(published.length).toBeLessThanOrEqual(2);
  });

  it('writes one completion when two runners finish the same job at the same time', async () => {
    const a = await startRunner();
    const b = await startRunner();
    await invokeExport(a);
    await b.start();
    await advance(DURATION_MS, a, b);
    expect(await completions()).toHaveLength(1);
    // Both really finished the job (each published its wake-up); the event id made one of them a no-op.
    expect(published).toHaveLength(2);
  });

  it('retries a failed attempt after the retry delay', async () => {
    let failures = 1;
    const flaky: Pick<BlobStore, 'put'> = {
      put: (content, type) => (failures-- > 0 ? Promise.reject(new Error('disk full')) : blobs.put(content, type)),
    };
    const runner = await startRunner({ blobs: flaky });
    await invokeExport(runner);
    await advance(DURATION_MS, runner);
    expect(await completions()).toEqual([]);
    expect(errors).toEqual([expect.objectContaining({ message: 'disk full' })]);
    await advance(1_000, runner);
    expect((await completions()).map((e) => (e.data as { status: string }).status)).toEqual(['ok']);
    expect((await jobStores[0].get(exportJobIdFor(TEST_WORKSPACE_ID, context.callId)))?.attempts).toBe(1);
  });

  it('completes the call with EXPORT_FAILED once the attempts are used up', async () => {
    const broken: Pick<BlobStore, 'put'> = { put: () => Promise.reject(new Error('disk full')) };
    const runner = await startRunner({ blobs: broken, maxAttempts: 2 });
    await invokeExport(runner);
    await advance(DURATION_MS, runner);
    await advance(1_000, runner);
    const [failed] = await completions();
    expect(failed.data).toEqual({
      callId: context.callId,
      status: 'error',
      error: { code: 'EXPORT_FAILED', message: 'The export failed after 2 attempts: disk full', retriable: true },
    });
    expect(published).toHaveLength(1);
    expect((await jobStores[0].get(exportJobIdFor(TEST_WORKSPACE_ID, context.callId)))?.status).toBe('failed');
    await advance(10_000, runner);
    expect(await completions()).toHaveLength(1);
  });

  it('keeps the completion and finishes the job when the wake-up cannot be published (the watchdog finds it)', async () => {
    const down: Pick<EventBus, 'publish'> = { publish: () => Promise.reject(new Error('broker down')) };
    const runner = await startRunner({ bus: down });
    await invokeExport(runner);
    await advance(DURATION_MS, runner);
    expect(await completions()).toHaveLength(1);
    expect(errors).toEqual([expect.objectContaining({ message: 'broker down' })]);
    expect(await jobStores[0].pending()).toEqual([]);
  });

  it('falls back to the turn id as correlation id when the call gave none or a malformed one', async () => {
    const runner = await startRunner();
    const registry = new ToolRegistry([exportDocumentTool(runner)]);
    await seedStartedCall(events, context, 'export.document', clock);
    await registry.invoke('export.document', ARGS, { ...context, clock, correlationId: 'has spaces' });
    await advance(DURATION_MS, runner);
    const [completion] = await completions();
    expect(completion.metadata.correlationId).toBe(TEST_TURN_ID);
  });
});

async function waitUntil(condition: () => Promise<boolean>, timeoutMs = 2_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
