import { Drill, RELAY_LEASE_MS } from './drill';
import { activeRelay, pauseOutsideWriteLock, relayLag, TopicRecorder } from './relay-watch';
import { Scenario } from './scenario';

jest.setTimeout(420_000);

/**
 * Issue 7's relay drills on the multi-process deployment: the active relay app is killed, and
 * separately paused past its lease and woken; the scenario's guarantees hold each time, and the
 * topics show what each relay instance (by the epoch header on every message) published.
 */
describe('multi-process deployment: relay failover', () => {
  const drill = new Drill();
  const recorder = new TopicRecorder();
  const scenarios: Scenario[] = [];

  beforeAll(async () => {
    await drill.start({ relays: 2, executors: 2, apis: 2 });
    await recorder.start();
  }, 300_000);

  afterAll(async () => {
    for (const s of scenarios) await s.close().catch(() => undefined);
    await recorder.stop().catch(() => undefined);
    await drill.stop();
  }, 60_000);

  const storeEventIds = async () => (await drill.events()).map((e) => e.metadata.eventId);

  it('SIGKILL of the active relay while it lags: the standby takes over from the checkpoint, nothing is lost', async () => {
    expect(drill.relays.length).toBe(2);
    const scenario = new Scenario(drill, 'relay_kill');
    scenarios.push(scenario);
    await scenario.openMainline();

    const { relay: victim, lease: before } = await activeRelay(drill.sqlitePath, drill.relays);
    // Paused first so the messages below are certainly in the store and not yet on the bus.
    await pauseOutsideWriteLock(victim, drill.sqlitePath);
    await scenario.sendFirst();
    expect(await relayLag(drill.store!)).toBe(true);
    victim.signal('SIGKILL');
    expect((await victim.exited).signal).toBe('SIGKILL');

    const { relay: heir, lease: after } = await activeRelay(drill.sqlitePath, drill.relays, victim);
    expect(after.epoch).toBeGreaterThan(before.epoch);

    const verdict = await scenario.completeAndVerify();

    await recorder.seen(await storeEventIds(), 'every stored event on the topics');
    expect(recorder.duplicatesWithinEpochs()).toEqual([]);
    expect((await activeRelay(drill.sqlitePath, drill.relays)).relay.name).toBe(heir.name);
    process.stderr.write(`relay kill drill: ${JSON.stringify({ ...verdict, epochs: [before.epoch, after.epoch] })}\n`);
  });

  it('SIGSTOP of the active relay past its lease, then SIGCONT: the standby takes over, the woken relay is fenced and publishes nothing', async () => {
    // A standby again, for the relay the first drill promoted.
    drill.relays.push(await drill.startRelay('relay-3'));
    const scenario = new Scenario(drill, 'relay_pause');
    scenarios.push(scenario);
    await scenario.openMainline();

    const { relay: paused, lease: before } = await activeRelay(drill.sqlitePath, drill.relays);
    await pauseOutsideWriteLock(paused, drill.sqlitePath);
    const pausedAt = Date.now();
    await scenario.sendFirst();
    expect(await relayLag(drill.store!)).toBe(true);

    const { relay: heir, lease: after } = await activeRelay(drill.sqlitePath, drill.relays, paused);
    expect(after.epoch).toBeGreaterThan(before.epoch);
    // What the paused relay held back is on the topics, published by the heir.
    await recorder.seen(await storeEventIds(), 'the heir publishing the backlog');
    // Past its lease: the heir could take over only once the paused relay's last renewal ran out.
    expect(Date.now()).toBeGreaterThan(before.expiresAt);
    // It renews at a third of the lease, so at least two thirds of it were left at the pause.
    expect(Date.now() - pausedAt).toBeGreaterThanOrEqual((RELAY_LEASE_MS * 2) / 3 - 200);
    const publishedBeforeWake = recorder.ofEpoch(before.epoch);

    paused.signal('SIGCONT');
    await paused.waitForLog(
      (l) => typeof l.msg === 'string' && l.msg.startsWith('event relay fenced'),
      'the woken relay fenced',
      30_000,
    );

    const verdict = await scenario.completeAndVerify();

    await recorder.seen(await storeEventIds(), 'every stored event on the topics');
    // Not one message more under the woken relay's epoch: whatever it had in flight was aborted.
    expect(recorder.ofEpoch(before.epoch)).toEqual(publishedBeforeWake);
    expect(recorder.duplicatesWithinEpochs()).toEqual([]);
    expect((await activeRelay(drill.sqlitePath, drill.relays)).relay.name).toBe(heir.name);
    process.stderr.write(`relay pause drill: ${JSON.stringify({ ...verdict, epochs: [before.epoch, after.epoch] })}\n`);
  });
});
