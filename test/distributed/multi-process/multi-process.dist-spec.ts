import { Drill } from './drill';
import { killInsideToolCall } from './kill-inside-tool-call';
import { Scenario } from './scenario';
import { turnFacts } from './store-facts';

jest.setTimeout(420_000);

/**
 * Issue 7's multi-process test: every app as its own OS process on Kafka + FerretDB (the event
 * store a SQLite file the processes share), two executors, two API instances, two relays when
 * the relay app holds a lease (one otherwise: two unleased relays would both publish).
 */
describe('multi-process deployment: executor SIGKILL inside a tool call', () => {
  const drill = new Drill();
  const scenario = new Scenario(drill, 'kill_executor');

  beforeAll(async () => {
    await drill.start({ relays: 2, executors: 2, apis: 2 });
  }, 300_000);

  afterAll(async () => {
    await scenario.close().catch(() => undefined);
    await drill.stop();
  }, 60_000);

  it('the other executor takes over at generation 2; every turn completes; one effect per key; read models and both API instances’ subscriptions match the log', async () => {
    const started = Date.now();
    await scenario.openMainline();
    const kill = killInsideToolCall(drill, drill.executors, 150_000);
    await scenario.sendFirst();
    const { victim, ...caught } = await kill;
    const survivor = drill.executors.find((e) => e !== victim)!;
    expect((await victim.exited).signal).toBe('SIGKILL');
    await scenario.followTasks();

    // The killed call's turn: taken over by the survivor under a higher generation, which wrote to it.
    await scenario.settle(1);
    const turn = turnFacts(await drill.events()).get(caught.turnId)!;
    expect(turn.leases[0].workerId).toBe(victim.name);
    expect(turn.leases[turn.leases.length - 1]).toEqual({
      workerId: survivor.name,
      generation: turn.leases[0].generation + 1,
    });
    expect(turn.writerGenerations.has(turn.leases[0].generation + 1)).toBe(true);
    expect(turn.completed.filter((c) => c.callId === caught.callId)).toEqual([{ callId: caught.callId, status: 'ok' }]);

    await scenario.sendFollowUps();
    await scenario.settle(2);
    const verdict = await scenario.verify();
    expect(verdict.generations).toContain(2);
    expect(survivor.running).toBe(true);
    process.stderr.write(
      `multi-process drill: ${JSON.stringify({ ...verdict, caught: { ...caught, victim: victim.name }, seconds: (Date.now() - started) / 1000 })}\n`,
    );
  });
});
