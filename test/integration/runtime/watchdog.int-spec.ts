import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { randomUUID } from 'node:crypto';
import { makeCallId, streams, type NewEvent } from '@lomo/contracts';
import { SqliteEventStore } from '@lomo/eventstore';
import { ModelBadRequestError, ScriptedModelProvider } from '@lomo/llm';
import { Metrics, silentLogger } from '@lomo/observability';
import { ActiveWorkIndex, RuntimeMetrics, Watchdog } from '@lomo/runtime';
import { RuntimeHarness, ScriptedFaults, ManualScheduler, type HarnessWorker } from '@lomo/runtime/testing';
import { FakeClock } from '@lomo/testing';
import { seedFinishedTurns } from './support/seed-finished-turns';
import { ofType, turnIdsOf, typesOf } from './support/turn-events';

function watchdogFor(harness: RuntimeHarness, worker: HarnessWorker) {
  const index = new ActiveWorkIndex(harness.store);
  const watchdog = new Watchdog(
    index,
    (request) => worker.worker.wake(request),
    harness.clock,
    { intervalMs: 10_000, queuedTooLongMs: 30_000 },
    worker.deps.metrics,
    harness.logger,
    worker.scheduler,
  );
  watchdog.start();
  return watchdog;
}

describe('the watchdog', () => {
  let harness: RuntimeHarness;
  beforeEach(async () => (harness = await RuntimeHarness.open({ label: 'watchdog' })));
  afterEach(async () => harness.close());

  it('rediscovers a lost wake-up within one scan, and the turn completes', async () => {
    const { taskId, itemId } = await harness.createTask('hello?');
    const model = new ScriptedModelProvider([{ reply: { text: 'Hello!' } }]);
    const executor = harness.worker('worker-a', model);
    const watchdog = watchdogFor(harness, executor);

    // Nobody published the wake-up for this message. One scheduled scan finds it.
    expect(await executor.scheduler.fire('watchdog')).toBe(1);
    await executor.worker.idle();

    const [turnId] = await turnIdsOf(harness, taskId);
    const turn = await harness.read(streams.turn(turnId));
    expect(typesOf(turn).at(-1)).toBe('TurnCompleted');
    expect(ofType(turn, 'ModelStepCommitted')).toEqual([expect.objectContaining({ consumedItemIds: [itemId] })]);
    expect(await watchdog.scan()).toEqual([]);
  });

  it('resumes a waiting turn whose async completion arrived but whose wake-up was lost', async () => {
    const { taskId } = await harness.createTask('export the report');
    const model = new ScriptedModelProvider([
      { reply: { toolCalls: [{ name: 'export.document', arguments: { title: 'Report', content: 'body' } }] } },
      { reply: { text: 'Exported.' } },
    ]);
    const executor = harness.worker('worker-a', model);
    const watchdog = watchdogFor(harness, executor);
    await executor.worker.wake({ taskId, reason: 'message' });
    const [turnId] = await turnIdsOf(harness, taskId);
    expect(typesOf(await harness.read(streams.turn(turnId))).at(-1)).toBe('TurnWaiting');
    expect(await watchdog.scan()).toEqual([]);

    // The runner appends the completion and publishes a wake-up no executor consumes.
    harness.clock.advance(60_000);
    await harness.exports.idle();
    expect(await watchdog.scan()).toEqual([{ kind: 'wait-satisfied', taskId, turnId, workspaceId: 'ws_runtime' }]);
    await executor.worker.idle();

    const turn = await harness.read(streams.turn(turnId));
    expect(typesOf(turn).slice(-5)).toEqual([
      'ToolCallCompleted',
      'TurnResumed',
      'TurnLeased',
      'ModelStepCommitted',
      'TurnCompleted',
    ]);
    expect(ofType(turn, 'ToolCallCompleted')).toEqual([
      expect.objectContaining({ callId: makeCallId(turnId, 1, 0), status: 'ok' }),
    ]);
  });

  it('releases the claims of a failed turn whose worker died before closing it, so the message is handled later', async () => {
    const { taskId, itemId } = await harness.createTask('draft a poem');
    const model = new ScriptedModelProvider([
      { label: 'broken', fail: new ModelBadRequestError('the request was rejected') },
      { label: 'working again', reply: { text: 'A poem.' } },
    ]);
    const faults = new ScriptedFaults();
    const closing = faults.hang('between-read-and-append', (c) => c.eventTypes?.includes('TurnClosed') ?? false);
    const executor = harness.worker('worker-a', model, { faults });
    const watchdog = watchdogFor(harness, executor);

    const run = executor.worker.wake({ taskId, reason: 'message' });
    await closing.reached;
    closing.fail(new Error('process died'));
    await run;
    const [failedTurn] = await turnIdsOf(harness, taskId);
    expect(typesOf(await harness.read(streams.turn(failedTurn))).at(-1)).toBe('TurnFailed');
    expect(typesOf(await harness.read(streams.task(taskId))).at(-1)).toBe('InboxItemsClaimed');

    expect(await watchdog.scan()).toEqual([
      { kind: 'unclosed-turn', taskId, turnId: failedTurn, workspaceId: 'ws_runtime' },
    ]);
    await executor.worker.idle();
    const task = await harness.read(streams.task(taskId));
    expect(ofType(task, 'InboxItemsReleased')).toEqual([
      { turnId: failedTurn, step: 1, itemIds: [itemId], reason: 'turn_failed' },
    ]);
    expect(ofType(task, 'TurnClosed')).toEqual([{ turnId: failedTurn, outcome: 'failed' }]);

    // A failed turn is not retried on the spot; the next scan hands the released message to a new turn.
    expect(await watchdog.scan()).toEqual([{ kind: 'unclaimed-inbox', taskId, workspaceId: 'ws_runtime' }]);
    await executor.worker.idle();
    const [, secondTurn] = await turnIdsOf(harness, taskId);
    const turn = await harness.read(streams.turn(secondTurn));
    expect(ofType(turn, 'ModelStepCommitted')).toEqual([expect.objectContaining({ consumedItemIds: [itemId] })]);
    expect(typesOf(turn).at(-1)).toBe('TurnCompleted');
  });
});

describe('watchdog scan cost', () => {
  const ACTIVE_TASKS = 50;
  const SCANS = 21;

  /** A store with `finished` finished turns of history and the same 50 pieces of active work. */
  async function storeWith(harness: RuntimeHarness, finished: number, clock: FakeClock) {
    const filename = join(harness.dir, `history-${finished}.sqlite`);
    const store = new SqliteEventStore({ filename, synchronous: 'NORMAL', now: () => clock.now() });
    seedFinishedTurns(filename, finished, clock.now().toISOString());
    const meta = {
      correlationId: 'active',
      causationId: null,
      workspaceId: 'ws_active',
      actor: { kind: 'system' as const, component: 'executor' },
    };
    const event = (type: string, data: unknown): NewEvent => ({ eventId: randomUUID(), type, data, metadata: meta });
    for (let i = 0; i < ACTIVE_TASKS; i += 1) {
      const [taskId, turnId, itemId] = [randomUUID(), randomUUID(), randomUUID()];
      // Every fifth lease has run out, so scans find work and take the acting path too.
      const leaseUntil = new Date(clock.now().getTime() + (i % 5 === 0 ? -1 : 60_000)).toISOString();
      await store.append(
        streams.task(taskId),
        [
          event('TaskCreated', { taskId, kind: 'persistent', goal: 'live', language: 'en', originMessageId: itemId }),
          event('MessageDeliveredToInbox', { itemId, messageId: itemId, text: 'go', language: 'en' }),
          event('TurnOpened', { turnId, reason: 'message' }),
          event('InboxItemsClaimed', { turnId, step: 1, itemIds: [itemId] }),
        ],
        'no_stream',
      );
      await store.append(
        streams.turn(turnId),
        [
          event('TurnStarted', { turnId, taskId, reason: 'message' }),
          event('TurnLeased', { workerId: 'busy-worker', generation: 1, leaseUntil }),
        ],
        'no_stream',
      );
    }
    const woken: string[] = [];
    const index = new ActiveWorkIndex(store);
    const watchdog = new Watchdog(
      index,
      async (request) => void woken.push(request.taskId),
      clock,
      { intervalMs: 10_000, queuedTooLongMs: 30_000 },
      new RuntimeMetrics(new Metrics({ defaultMetrics: false }), () => 0),
      silentLogger,
      new ManualScheduler(),
    );
    const catchUpStarted = performance.now();
    await index.refresh();
    return { store, index, watchdog, woken, catchUpMs: performance.now() - catchUpStarted };
  }

  it('does not grow with history: 100 000 finished turns scan as fast as 100', async () => {
    const harness = await RuntimeHarness.open({ label: 'watchdog-cost' });
    const clock = new FakeClock();
    try {
      const small = await storeWith(harness, 100, clock);
      const large = await storeWith(harness, 100_000, clock);
      expect(small.index.size).toEqual({ tasks: ACTIVE_TASKS, turns: ACTIVE_TASKS });
      expect(large.index.size).toEqual({ tasks: ACTIVE_TASKS, turns: ACTIVE_TASKS });

      const times = { small: [] as number[], large: [] as number[] };
      for (let i = 0; i < SCANS; i += 1) {
        // Interleaved, so machine noise hits both alike.
        for (const [name, subject] of [
          ['small', small],
          ['large', large],
        ] as const) {
          const started = performance.now();
          const findings = await subject.watchdog.scan();
          times[name].push(performance.now() - started);
          expect(findings).toHaveLength(ACTIVE_TASKS / 5);
        }
      }
      const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
      const figures = {
        scan_median_ms_100: Number(median(times.small).toFixed(3)),
        scan_median_ms_100000: Number(median(times.large).toFixed(3)),
        index_catch_up_ms_100000: Math.round(large.catchUpMs),
      };
      console.log(`watchdog scan cost ${JSON.stringify(figures)}`);
      expect(median(times.large) / median(times.small)).toBeLessThan(3);
      await small.store.close();
      await large.store.close();
    } finally {
      await harness.close();
    }
  }, 120_000);
});
