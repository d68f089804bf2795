import { streams } from '@lomo/contracts';
import { waitFor } from '@lomo/bus/testing';
import { ScriptedModelProvider } from '@lomo/llm';
import { RuntimeHarness } from '@lomo/runtime/testing';
import { metricValue } from './support/metric-value';
import { ofType, turnIdsOf, typesOf } from './support/turn-events';

const LEASE_MS = 30_000;

describe('turn leases', () => {
  let harness: RuntimeHarness;
  beforeEach(async () => (harness = await RuntimeHarness.open({ label: 'leases' })));
  afterEach(async () => harness.close());

  it('are renewed on their timer while the model thinks, so nobody takes the turn meanwhile', async () => {
    const { taskId } = await harness.createTask('think hard');
    const model = new ScriptedModelProvider([{ label: 'slow', hangUntilAborted: true }]);
    const a = harness.worker('worker-a', model, { runtime: { leaseMs: LEASE_MS } });
    const b = harness.worker('worker-b', model, { runtime: { leaseMs: LEASE_MS } });
    const runA = a.worker.wake({ taskId, reason: 'message' });
    await waitFor(() => model.calls.length === 1, 'the model call in flight', 5_000);
    expect(a.scheduler.names()).toEqual([expect.stringMatching(/^renew:/)]);

    for (let i = 0; i < 3; i += 1) {
      harness.clock.advance(LEASE_MS / 3);
      await a.scheduler.fire('renew:');
    }
    await b.worker.wake({ taskId, reason: 'watchdog' });
    const [turnId] = await turnIdsOf(harness, taskId);
    const turn = await harness.read(streams.turn(turnId));
    expect(ofType(turn, 'TurnLeased')).toHaveLength(1);
    expect(
      ofType<{ leaseUntil: string }>(turn, 'TurnLeaseRenewed')
        .map((r) => r.leaseUntil)
        .at(-1),
    ).toBe(new Date(harness.clock.now().getTime() + LEASE_MS).toISOString());
    expect(a.worker.cancel(turnId, 'test over')).toBe(true);
    await runA;
  });

  it('a holder whose renewal the store refuses after a takeover aborts its model call', async () => {
    const { taskId } = await harness.createTask('think hard');
    const model = new ScriptedModelProvider([
      { label: 'stalled holder', hangUntilAborted: true },
      { label: 'new holder', reply: { text: 'Done thinking.' } },
    ]);
    const a = harness.worker('worker-a', model, { runtime: { leaseMs: LEASE_MS } });
    const b = harness.worker('worker-b', model, { runtime: { leaseMs: LEASE_MS } });
    const runA = a.worker.wake({ taskId, reason: 'message' });
    await waitFor(() => model.calls.length === 1, 'the model call in flight', 5_000);

    harness.clock.advance(LEASE_MS + 1);
    await b.worker.wake({ taskId, reason: 'watchdog' });
    await a.scheduler.fire('renew:');
    await runA;

    expect(model.callsFor('stalled holder')[0].outcome).toBe('aborted');
    const [turnId] = await turnIdsOf(harness, taskId);
    const turn = await harness.read(streams.turn(turnId));
    expect(ofType<{ generation: number }>(turn, 'TurnLeased').map((l) => l.generation)).toEqual([1, 2]);
    expect(ofType(turn, 'TurnLeaseRenewed')).toHaveLength(0);
    expect(typesOf(turn).at(-1)).toBe('TurnCompleted');
    expect(
      await metricValue(a.registry, 'lomo_runtime_fenced_writes_total', { stream: 'turn', outcome: 'stopped' }),
    ).toBe(1);
  });

  it('are released on shutdown (SIGTERM), so another worker takes over at once', async () => {
    const { taskId } = await harness.createTask('think hard');
    const model = new ScriptedModelProvider([
      { label: 'interrupted by shutdown', hangUntilAborted: true },
      { label: 'next executor', reply: { text: 'Picked up where it stopped.' } },
    ]);
    const a = harness.worker('worker-a', model, { runtime: { leaseMs: LEASE_MS } });
    const b = harness.worker('worker-b', model, { runtime: { leaseMs: LEASE_MS } });
    const runA = a.worker.wake({ taskId, reason: 'message' });
    await waitFor(() => model.calls.length === 1, 'the model call in flight', 5_000);

    await a.worker.shutdown();
    await runA;
    expect(a.worker.activeTurns).toBe(0);
    // No time passes: the released lease is free now.
    await b.worker.wake({ taskId, reason: 'resume' });

    const [turnId] = await turnIdsOf(harness, taskId);
    const turn = await harness.read(streams.turn(turnId));
    expect(typesOf(turn)).toEqual([
      'TurnStarted',
      'TurnLeased',
      'TurnLeaseRenewed',
      'TurnLeased',
      'ModelStepCommitted',
      'TurnCompleted',
    ]);
    expect(ofType(turn, 'TurnLeaseRenewed')).toEqual([
      { workerId: 'worker-a', generation: 1, leaseUntil: harness.clock.now().toISOString() },
    ]);
    expect(ofType<{ generation: number }>(turn, 'TurnLeased').map((l) => l.generation)).toEqual([1, 2]);
  });
});
