import { makeCallId, streams, type EventEnvelope } from '@lomo/contracts';
import { ScriptedModelProvider, match } from '@lomo/llm';
import { RuntimeHarness, ScriptedFaults } from '@lomo/runtime/testing';
import { metricValue } from './support/metric-value';
import { RefusalRecorder } from './support/refusal-recorder';
import { ofType, turnIdsOf, typesOf } from './support/turn-events';

const LEASE_MS = 10_000;
const WORKER = 'executor-0';
const hasToolResult = match.where('a tool result', (r) => r.messages.some((m) => m.role === 'tool'));

const leases = (turn: readonly EventEnvelope[]) =>
  turn
    .filter((e) => e.type === 'TurnLeased')
    .map((e) => ({
      ...(e.data as { workerId: string; generation: number; leaseUntil: string }),
      at: e.metadata.occurredAt,
    }));

// The clock never moves in these tests: the first incarnation's lease is live throughout, so a
// takeover can only come from the reclaim at start, not from an expired lease.
describe('an executor restarted with the same worker id', () => {
  let harness: RuntimeHarness;
  beforeEach(async () => (harness = await RuntimeHarness.open({ label: 'reclaim' })));
  afterEach(async () => harness.close());

  it('takes its turn back at start at the next generation while the old lease is live, and the dead generation’s late write is refused by the store', async () => {
    const { taskId } = await harness.createTask('What notes do I have?');
    const model = new ScriptedModelProvider([
      { label: 'decide', reply: { text: 'Let me look.', toolCalls: [{ name: 'notes.list', arguments: {} }] } },
      { label: 'answer', expect: hasToolResult, reply: { text: 'You have no notes.' } },
    ]);
    // The first incarnation hangs inside the tool call, then (as a process that was only frozen
    // would) tries to record the result with the revision it last saw.
    const faults = new ScriptedFaults();
    const hungInTool = faults.hang('after-tool-started');
    const heldBeforeResult = faults.hang(
      'between-read-and-append',
      (c) => c.eventTypes?.includes('ToolCallCompleted') ?? false,
    );
    const recorder = new RefusalRecorder();
    const first = harness.worker(WORKER, model, { faults, wrapStore: recorder.wrap, runtime: { leaseMs: LEASE_MS } });
    const firstRun = first.worker.wake({ taskId, reason: 'message' });
    const { turnId } = await hungInTool.reached;
    const callId = makeCallId(turnId!, 1, 0);

    const restarted = harness.executor(WORKER, model, { runtime: { leaseMs: LEASE_MS } });
    await restarted.runtime.start();
    await restarted.runtime.worker.idle();

    const turn = await harness.read(streams.turn(turnId!));
    const [gen1, gen2] = leases(turn);
    expect(leases(turn).map((l) => [l.workerId, l.generation])).toEqual([
      [WORKER, 1],
      [WORKER, 2],
    ]);
    // Taken while the first lease was still live: no waiting for it to expire.
    expect(Date.parse(gen2.at)).toBeLessThan(Date.parse(gen1.leaseUntil));
    expect(typesOf(turn).at(-1)).toBe('TurnCompleted');
    expect(ofType(turn, 'ToolCallStarted')).toEqual([
      { callId, tool: 'notes.list', idempotencyKey: callId, attempt: 1 },
      { callId, tool: 'notes.list', idempotencyKey: callId, attempt: 2 },
    ]);
    expect(model.calls.filter((c) => c.request.trace?.step === 1)).toHaveLength(1);
    const afterTakeover = turn.slice(turn.findIndex((e) => e.type === 'TurnLeased' && e.metadata.generation === 2));
    expect(afterTakeover.map((e) => e.metadata.generation)).toEqual(afterTakeover.map(() => 2));
    expect(harness.logs.lines).toContainEqual(
      expect.objectContaining({ msg: expect.stringContaining('reclaiming a turn'), taskId, turnId, workerId: WORKER }),
    );

    // The first incarnation wakes up and writes its result at the revision it last saw.
    hungInTool.release();
    const late = await heldBeforeResult.reached;
    expect(late).toMatchObject({ workerId: WORKER, generation: 1, callId });
    heldBeforeResult.release();
    await firstRun;

    expect(recorder.refusals).toHaveLength(1);
    expect(recorder.refusals[0]).toMatchObject({ streamId: streams.turn(turnId!), expected: late.expectedRevision });
    const final = await harness.read(streams.turn(turnId!));
    expect(final).toHaveLength(turn.length);
    expect(ofType<{ callId: string }>(final, 'ToolCallCompleted').filter((c) => c.callId === callId)).toHaveLength(1);
    expect(
      await metricValue(first.registry, 'lomo_runtime_fenced_writes_total', { stream: 'turn', outcome: 'stopped' }),
    ).toBe(1);
    expect(await turnIdsOf(harness, taskId)).toEqual([turnId]);
    model.assertAllConsumed();
  });

  it('another worker id started at the same instant leaves the live lease alone', async () => {
    const { taskId } = await harness.createTask('think hard');
    const model = new ScriptedModelProvider([{ label: 'slow', hangUntilAborted: true }]);
    const faults = new ScriptedFaults();
    const leased = faults.hang('after-lease-taken');
    const first = harness.worker(WORKER, model, { faults, runtime: { leaseMs: LEASE_MS } });
    const firstRun = first.worker.wake({ taskId, reason: 'message' });
    const { turnId } = await leased.reached;

    const other = harness.executor('executor-1', model, { runtime: { leaseMs: LEASE_MS } });
    await other.runtime.start();
    await other.runtime.worker.wake({ taskId, reason: 'watchdog' });

    expect(leases(await harness.read(streams.turn(turnId!))).map((l) => [l.workerId, l.generation])).toEqual([
      [WORKER, 1],
    ]);
    expect(harness.logs.lines).not.toContainEqual(
      expect.objectContaining({ msg: expect.stringContaining('reclaiming') }),
    );
    leased.release();
    first.worker.cancel(turnId!, 'test over');
    await first.worker.shutdown();
    await firstRun;
  });
});
