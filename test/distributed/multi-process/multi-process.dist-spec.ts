import { runLomo, jsonLines } from '../../integration/operator/support/run-lomo';
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

  // Issue 19: the operator CLI with the same flags on the distributed stores (read models and
  // tokens on FerretDB, the bus on Kafka, the shared SQLite event store), after the drill above.
  it('lomo reads the distributed stores: task inspect, stream show --at, events tail, projections and relay status, dead letters', async () => {
    const issued = await runLomo(
      ['--json', 'tokens', 'create', '--workspace', 'ops', '--user', 'sam', '--kind', 'operator'],
      drill.env,
    );
    expect(issued.code).toBe(0);
    const token = (JSON.parse(issued.stdout.trim()) as { token: string }).token;
    const lomo = (...args: string[]) => runLomo(['--json', '--token', token, ...args], drill.env);

    const log = await drill.events();
    const taskId = (log.find((e) => e.type === 'TaskCreated')!.data as { taskId: string }).taskId;
    const turnIds = new Set(
      log
        .filter((e) => e.type === 'TurnOpened' && e.metadata.streamId === `task-${taskId}`)
        .map((e) => (e.data as { turnId: string }).turnId),
    );
    const committed = log.filter(
      (e) => e.type === 'ModelStepCommitted' && turnIds.has(e.metadata.streamId.slice('turn-'.length)),
    );

    const inspected = await lomo('task', 'inspect', taskId);
    expect(inspected.code).toBe(0);
    const inspection = JSON.parse(inspected.stdout.trim()) as { taskId: string; steps: unknown[]; timeline: unknown[] };
    expect(inspection.taskId).toBe(taskId);
    expect(inspection.steps).toHaveLength(committed.length);

    const first = await lomo('stream', 'show', `task-${taskId}`, '--at', '0');
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout.trim())).toMatchObject({ revision: 0, folded: true, state: { taskId } });

    const tail = await lomo('events', 'tail', '--stream', `task-${taskId}`, '--limit', '3');
    expect(tail.code).toBe(0);
    expect(
      jsonLines<{ metadata: { streamId: string; revision: number } }>(tail.stdout).map((e) => e.metadata.revision),
    ).toEqual([0, 1, 2]);

    const status = await lomo('projections', 'status');
    expect(status.code).toBe(0);
    const rows = jsonLines<{ name: string; aliasCollection: string | null }>(status.stdout);
    expect(rows.map((r) => r.name)).toEqual(expect.arrayContaining(['tasks', 'turns', 'inbox_items']));
    expect(rows.every((r) => r.aliasCollection !== null)).toBe(true);

    const relay = await lomo('relay', 'status');
    expect(relay.code).toBe(0);
    const relayStatus = JSON.parse(relay.stdout.trim()) as {
      checkpoint: string | null;
      lease: { holder: string | null; live: boolean } | null;
    };
    expect(relayStatus.checkpoint).not.toBeNull();
    expect(relayStatus.lease).toMatchObject({ holder: expect.any(String), live: true });

    const dlq = await lomo('dlq', 'list');
    expect(dlq.code).toBe(0);
  }, 180_000);
});
