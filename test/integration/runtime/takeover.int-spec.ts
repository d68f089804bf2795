import { makeCallId, streams } from '@lomo/contracts';
import { ScriptedModelProvider, match } from '@lomo/llm';
import { RuntimeHarness, ScriptedFaults } from '@lomo/runtime/testing';
import { metricValue } from './support/metric-value';
import { RefusalRecorder } from './support/refusal-recorder';
import { ofType, turnIdsOf, typesOf } from './support/turn-events';

const LEASE_MS = 30_000;
const hasToolResult = match.where('a tool result', (r) => r.messages.some((m) => m.role === 'tool'));

describe('takeover of a turn whose worker hangs', () => {
  let harness: RuntimeHarness;
  beforeEach(async () => (harness = await RuntimeHarness.open({ label: 'takeover' })));
  afterEach(async () => harness.close());

  it('idempotent tool: B takes over at generation 2 without re-inferring the step; A’s late result is refused by the store', async () => {
    const { taskId } = await harness.createTask('What notes do I have?');
    const model = new ScriptedModelProvider([
      { label: 'decide', reply: { text: 'Let me look.', toolCalls: [{ name: 'notes.list', arguments: {} }] } },
      { label: 'answer', expect: hasToolResult, reply: { text: 'You have no notes.' } },
    ]);
    const faultsA = new ScriptedFaults();
    const hungAfterStart = faultsA.hang('after-tool-started');
    const heldBeforeAppend = faultsA.hang(
      'between-read-and-append',
      (c) => c.eventTypes?.includes('ToolCallCompleted') ?? false,
    );
    const recorderA = new RefusalRecorder();
    const a = harness.worker('worker-a', model, {
      faults: faultsA,
      wrapStore: recorderA.wrap,
      runtime: { leaseMs: LEASE_MS },
    });
    const b = harness.worker('worker-b', model, { runtime: { leaseMs: LEASE_MS } });

    const runA = a.worker.wake({ taskId, reason: 'message' });
    const started = await hungAfterStart.reached;
    const turnId = started.turnId!;
    const callId = makeCallId(turnId, 1, 0);
    expect(started).toMatchObject({ workerId: 'worker-a', generation: 1, callId });

    harness.clock.advance(LEASE_MS + 1);
    await b.worker.wake({ taskId, reason: 'watchdog' });

    // A goes on from where it hung, decides its append on what it last saw, and is held there.
    hungAfterStart.release();
    const atAppend = await heldBeforeAppend.reached;
    const head = await harness.store.streamRevision(streams.turn(turnId));
    expect(atAppend).toMatchObject({ workerId: 'worker-a', generation: 1, callId });
    expect(atAppend.expectedRevision).toBeLessThan(head as number);
    heldBeforeAppend.release();
    await runA;

    const turn = await harness.read(streams.turn(turnId));
    expect(typesOf(turn).at(-1)).toBe('TurnCompleted');
    expect(ofType<{ generation: number }>(turn, 'TurnLeased').map((l) => l.generation)).toEqual([1, 2]);
    expect(ofType<{ step: number }>(turn, 'ModelStepCommitted').map((s) => s.step)).toEqual([1, 2]);
    expect(model.calls.filter((c) => c.request.trace?.step === 1)).toHaveLength(1);
    expect(ofType(turn, 'ToolCallStarted')).toEqual([
      { callId, tool: 'notes.list', idempotencyKey: callId, attempt: 1 },
      { callId, tool: 'notes.list', idempotencyKey: callId, attempt: 2 },
    ]);
    expect(ofType<{ callId: string }>(turn, 'ToolCallCompleted').filter((c) => c.callId === callId)).toHaveLength(1);
    const afterTakeover = turn.slice(turn.findIndex((e) => e.type === 'TurnLeased' && e.metadata.generation === 2));
    expect(afterTakeover.every((e) => e.metadata.generation === 2)).toBe(true);

    expect(recorderA.refusals).toHaveLength(1);
    expect(recorderA.refusals[0]).toMatchObject({
      streamId: streams.turn(turnId),
      expected: atAppend.expectedRevision,
    });
    expect(
      await metricValue(a.registry, 'lomo_runtime_fenced_writes_total', { stream: 'turn', outcome: 'stopped' }),
    ).toBe(1);
    expect(harness.logs.lines).toContainEqual(
      expect.objectContaining({
        msg: expect.stringContaining('stale turn write refused'),
        taskId,
        turnId,
        generation: 1,
        step: 1,
      }),
    );
    expect(await turnIdsOf(harness, taskId)).toEqual([turnId]);
    model.assertAllConsumed();
  });

  it('non-idempotent tool: B records the outcome as unknown, the model is told, and the effect happened once', async () => {
    const { note } = await harness.notes.create({
      workspaceId: 'ws_runtime',
      taskId: 'seed',
      title: 'log',
      body: 'first',
      idempotencyKey: 'seed-note',
      at: harness.clock.now(),
    });
    const { taskId } = await harness.createTask('Add a line to my log');
    const model = new ScriptedModelProvider([
      {
        label: 'decide',
        reply: { toolCalls: [{ name: 'notes.append_line', arguments: { noteId: note.noteId, line: 'second' } }] },
      },
      {
        label: 'told unknown',
        expect: match.where('an unknown outcome', (r) =>
          r.messages.some((m) => m.role === 'tool' && m.content.includes('"unknown"')),
        ),
        reply: { text: 'I could not confirm the line was added; please check the note.' },
      },
    ]);
    const faultsA = new ScriptedFaults();
    const hungAfterRun = faultsA.hang('after-tool-ran-before-completion');
    const recorderA = new RefusalRecorder();
    const a = harness.worker('worker-a', model, {
      faults: faultsA,
      wrapStore: recorderA.wrap,
      runtime: { leaseMs: LEASE_MS },
    });
    const b = harness.worker('worker-b', model, { runtime: { leaseMs: LEASE_MS } });

    const runA = a.worker.wake({ taskId, reason: 'message' });
    const { turnId } = await hungAfterRun.reached;
    const callId = makeCallId(turnId!, 1, 0);
    harness.clock.advance(LEASE_MS + 1);
    await b.worker.wake({ taskId, reason: 'watchdog' });
    hungAfterRun.release();
    await runA;

    const turn = await harness.read(streams.turn(turnId!));
    expect(typesOf(turn).at(-1)).toBe('TurnCompleted');
    expect(ofType(turn, 'ToolCallOutcomeUnknown')).toEqual([
      { callId, reason: 'started_without_result_not_idempotent' },
    ]);
    expect(ofType(turn, 'ToolCallStarted')).toHaveLength(1);
    expect(ofType(turn, 'ToolCallCompleted')).toHaveLength(0);
    expect(model.callsFor('told unknown')).toHaveLength(1);
    expect(model.calls.filter((c) => c.request.trace?.step === 1)).toHaveLength(1);
    const effects = await harness.notes.effects({ idempotencyKey: callId });
    expect(effects.map((e) => e.outcome)).toEqual(['applied']);
    expect((await harness.notes.get('ws_runtime', note.noteId))?.body).toBe('first\nsecond');
    expect(recorderA.refusals.map((r) => r.streamId)).toEqual([streams.turn(turnId!)]);
    expect(await metricValue(b.registry, 'lomo_runtime_tool_calls_total', { status: 'unknown' })).toBe(1);
    model.assertAllConsumed();
  });
});
