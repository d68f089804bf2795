import { randomInt } from 'node:crypto';
import { join } from 'node:path';
import { SqliteEventStore } from '@lomo/eventstore';
import {
  type ReceivedMessage,
  createKafkaEventBus,
  type KafkaEventBus,
  dedupeByEventId,
  InMemoryProcessedEventIds,
  eventIdOf,
  RelayHeaders,
} from '@lomo/bus';
import { waitFor } from '@lomo/bus/testing';
import { makeTempDir, newTaskStreamId, newTurnStreamId, sampleEventsFor } from '@lomo/eventstore/testing';
import { TsChild } from './support/child-process';
import { kafkaBrokers, runId, testBusLogger, uniqueKafkaName } from './support/kafka-test-env';

const RELAY_SCRIPT = 'libs/bus/src/relay/testing/relay-handover-process.ts';
const TTL_MS = 3_000;
const BATCH_SIZE = 40;
/** Each round stays open this long before its commit: the window the drill stops or kills in. */
const HOLD_MS = 300;
const STREAMS = 24;

jest.setTimeout(180_000);

/** A relay child and what it said, parsed. */
class Relay {
  readonly child: TsChild;
  constructor(args: readonly string[]) {
    this.child = new TsChild(RELAY_SCRIPT, args);
  }
  /** Epoch of the first time it became active (the `state active <epoch>` line), once it has. */
  activeEpoch(): number | undefined {
    const line = this.child.lines.find((l) => l.startsWith('state active '));
    return line === undefined ? undefined : Number(line.split(' ')[2]);
  }
  /** Events it reported committed, per epoch, among the lines from `from` on. */
  committed(from = 0): Map<number, number> {
    const out = new Map<number, number>();
    for (const line of this.child.lines.slice(from)) {
      const [word, epoch, n] = line.split(' ');
      if (word === 'committed') out.set(Number(epoch), (out.get(Number(epoch)) ?? 0) + Number(n));
    }
    return out;
  }
}

describe('relay handover on Kafka: one active instance, the others fenced', () => {
  const temp = makeTempDir('relay-handover');
  const filename = join(temp.dir, 'events.sqlite');
  const topicPrefix = `${uniqueKafkaName('relay-handover')}.`;
  const relayId = `handover-${runId}`;
  let store: SqliteEventStore;
  let bus: KafkaEventBus;
  const relays: Relay[] = [];
  let appending = false;
  let appender: Promise<void> = Promise.resolve();

  beforeAll(() => {
    store = new SqliteEventStore({ filename });
  });
  afterAll(async () => {
    appending = false;
    await appender;
    for (const r of relays) {
      r.child.kill('SIGCONT');
      r.child.kill('SIGKILL');
    }
    await bus?.close();
    await store.close();
    temp.remove();
  });

  const revisions = new Map<string, number>();
  async function appendRound(): Promise<void> {
    for (const streamId of [...revisions.keys()].filter(() => randomInt(0, 4) === 0)) {
      const have = revisions.get(streamId) ?? 0;
      await store.append(streamId, sampleEventsFor(streamId, 1, have), have === 0 ? 'no_stream' : have - 1);
      revisions.set(streamId, have + 1);
    }
  }
  const startRelay = (holder: string) => {
    const relay = new Relay([
      filename,
      topicPrefix,
      relayId,
      holder,
      String(TTL_MS),
      String(BATCH_SIZE),
      String(HOLD_MS),
    ]);
    relays.push(relay);
    return relay;
  };
  const lag = async () => (await store.getCheckpoint(relayId)) !== (await store.headPosition());

  it('hands over after SIGKILL and after SIGSTOP past the lease; the woken relay is fenced; every event once after dedupe, in stream order', async () => {
    for (let i = 0; i < STREAMS; i += 1) revisions.set(i % 2 === 0 ? newTaskStreamId() : newTurnStreamId(), 0);
    for (let i = 0; i < 8; i += 1) await appendRound();

    bus = createKafkaEventBus({
      brokers: kafkaBrokers,
      clientId: 'lomo-relay-handover-test',
      logger: testBusLogger('handover'),
    });
    const topics = [`${topicPrefix}task`, `${topicPrefix}turn`];
    await bus.ensureTopics(topics.map((name) => ({ name, partitions: 4 })));
    // Every delivery (read_committed, kafkajs' default), and the first one per event id in order.
    const deliveries: Array<{ eventId: string; epoch: number }> = [];
    const firstSeen: ReceivedMessage[] = [];
    const keepFirst = dedupeByEventId(async (m) => void firstSeen.push(m), new InMemoryProcessedEventIds());
    await bus.subscribe({
      groupId: uniqueKafkaName('relay-handover-consumer'),
      topics,
      fromBeginning: true,
      maxAttempts: 3,
      backoff: { initialDelayMs: 10, maxDelayMs: 100 },
      handler: async (message, context) => {
        deliveries.push({
          eventId: eventIdOf(message) ?? 'missing',
          epoch: Number(message.headers[RelayHeaders.relayEpoch]),
        });
        await keepFirst(message, context);
      },
    });

    appending = true;
    appender = (async () => {
      while (appending) {
        await appendRound();
        await new Promise((resolve) => setTimeout(resolve, 40));
      }
    })();

    // 1. Two instances: one active, one standby. SIGKILL the active one mid-transaction.
    const first = [startRelay('r1'), startRelay('r2')];
    await waitFor(() => first.some((r) => r.activeEpoch() !== undefined), 'one relay active', 60_000, 20);
    const killed = first.find((r) => r.activeEpoch() !== undefined)!;
    const heir = first.find((r) => r !== killed)!;
    const sentLines = () => killed.child.lines.filter((l) => l.startsWith('sent ')).length;
    await waitFor(() => killed.committed().size > 0 && sentLines() >= 3, 'a few rounds of the first relay', 60_000, 5);
    const beforeKill = sentLines();
    await killed.child.waitForLine(() => sentLines() > beforeKill, 'a round in its open transaction', 30_000);
    expect(await lag()).toBe(true);
    killed.child.kill('SIGKILL');
    const killedAt = Date.now();
    expect((await killed.child.exited).signal).toBe('SIGKILL');
    await waitFor(() => heir.activeEpoch() !== undefined, 'the standby taking over', 30_000, 20);
    // It waited for the lease to expire: the last renewal was at most a third of the TTL earlier.
    expect(Date.now() - killedAt).toBeGreaterThanOrEqual((TTL_MS * 2) / 3 - 200);
    expect(heir.activeEpoch()!).toBeGreaterThan(killed.activeEpoch()!);

    // 2. A new standby; SIGSTOP the active one mid-transaction, past its lease; SIGCONT it.
    const third = startRelay('r3');
    await third.child.waitForLine((l) => l === 'state standby', 'the new standby', 60_000);
    const paused = heir;
    await waitFor(() => paused.committed().size > 0, 'a committed round of the heir', 30_000, 10);
    const pausedSent = paused.child.lines.filter((l) => l.startsWith('sent ')).length;
    await paused.child.waitForLine(
      () => paused.child.lines.filter((l) => l.startsWith('sent ')).length > pausedSent,
      'a round of the heir in its open transaction',
      30_000,
    );
    paused.child.kill('SIGSTOP');
    await waitFor(() => third.activeEpoch() !== undefined, 'the third relay taking over', 30_000, 20);
    await waitFor(() => third.committed().size > 0, 'a committed round of the third relay', 30_000, 10);
    const linesAtWake = paused.child.lines.length;
    paused.child.kill('SIGCONT');
    await paused.child.waitForLine((l) => l.startsWith('state fenced'), 'the woken relay fenced', 30_000);
    const afterWake = paused.child.lines.slice(linesAtWake);
    // Its open transaction failed (Kafka had bumped the epoch) and nothing was committed after.
    expect(afterWake).toContain(`refused BUS_RELAY_FENCED ${paused.activeEpoch()}`);
    expect(afterWake.filter((l) => l.startsWith('committed'))).toEqual([]);

    // 3. Stop writing; the active relay catches up; check the topics.
    appending = false;
    await appender;
    const stored = await store.readAll();
    const expected = new Set(stored.map((e) => e.metadata.eventId));
    await waitFor(() => firstSeen.length >= expected.size, 'every event delivered', 60_000, 50);
    for (const r of [paused, third]) r.child.kill('SIGTERM');
    for (const r of [paused, third]) expect((await r.child.exited).code).toBe(0);

    // Everything the topics hold under an epoch is exactly what that instance reported committed:
    // the killed relay's open round and the paused relay's woken round are nowhere to be read.
    const onTopic = new Map<number, number>();
    for (const d of deliveries) onTopic.set(d.epoch, (onTopic.get(d.epoch) ?? 0) + 1);
    const reported = new Map<number, number>();
    for (const r of [killed, heir, third]) {
      for (const [epoch, n] of r.committed()) reported.set(epoch, (reported.get(epoch) ?? 0) + n);
    }
    expect(onTopic).toEqual(reported);
    // No epoch published an event twice; across epochs only one round per handover was re-published.
    const epochsOf = new Map<string, number[]>();
    for (const d of deliveries) epochsOf.set(d.eventId, [...(epochsOf.get(d.eventId) ?? []), d.epoch]);
    const sameEpochTwice = [...epochsOf.values()].filter((epochs) => new Set(epochs).size !== epochs.length);
    expect(sameEpochTwice).toEqual([]);
    const republished = [...epochsOf.values()].filter((epochs) => epochs.length > 1).length;
    expect(republished).toBeLessThanOrEqual(2 * BATCH_SIZE);
    // Every event present; after dedupe each stream in revision order.
    expect(new Set(firstSeen.map((m) => eventIdOf(m)))).toEqual(expected);
    expect(firstSeen).toHaveLength(expected.size);
    for (const [streamId, count] of revisions) {
      const seen = firstSeen.filter((m) => m.headers[RelayHeaders.streamId] === streamId);
      expect([streamId, seen.map((m) => Number(m.headers[RelayHeaders.revision]))]).toEqual([
        streamId,
        Array.from({ length: count }, (_, i) => i),
      ]);
    }
    process.stderr.write(
      `relay handover drill: ${expected.size} events, epochs ${[...reported.keys()].join(',')}, ${republished} re-published across handovers\n`,
    );
  });
});
