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
import { kafkaBrokers, testBusLogger, uniqueKafkaName } from './support/kafka-test-env';

const RELAY_SCRIPT = 'test/distributed/support/relay-process.ts';
const BATCH_SIZE = 50;
const KILLS = 4;
const STREAMS = 40;
const INITIAL_EVENTS_PER_STREAM = 30;
const EVENTS_PER_STREAM_BETWEEN_RUNS = 10;

jest.setTimeout(240_000);

describe('relay on Kafka, killed with SIGKILL mid-batch', () => {
  const temp = makeTempDir('relay-crash');
  const filename = join(temp.dir, 'events.sqlite');
  const topicPrefix = `${uniqueKafkaName('relay-crash')}.`;
  let store: SqliteEventStore;
  let bus: KafkaEventBus;
  const children: TsChild[] = [];

  beforeAll(() => {
    store = new SqliteEventStore({ filename });
  });

  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    await bus?.close();
    await store.close();
    temp.remove();
  });

  /** Stream ids with how many events each has, so appends keep the exact expected revision. */
  const revisions = new Map<string, number>();
  async function appendToEveryStream(count: number): Promise<void> {
    for (const streamId of revisions.keys()) {
      const have = revisions.get(streamId) ?? 0;
      await store.append(streamId, sampleEventsFor(streamId, count, have), have === 0 ? 'no_stream' : have - 1);
      revisions.set(streamId, have + count);
    }
  }

  it('every event reaches Kafka at least once, and a consumer deduplicating by event id handles each exactly once, in stream order', async () => {
    for (let i = 0; i < STREAMS; i += 1) revisions.set(i % 2 === 0 ? newTaskStreamId() : newTurnStreamId(), 0);
    await appendToEveryStream(INITIAL_EVENTS_PER_STREAM);

    bus = createKafkaEventBus({
      brokers: kafkaBrokers,
      clientId: 'lomo-relay-crash-test',
      logger: testBusLogger('relay-crash'),
    });
    const topics = [`${topicPrefix}task`, `${topicPrefix}turn`];
    await bus.ensureTopics(topics.map((name) => ({ name, partitions: 4 })));

    const deliveries = new Map<string, number>();
    const handledPerEvent = new Map<string, number>();
    const handledRevisions = new Map<string, number[]>();
    const record = async (message: ReceivedMessage) => {
      const eventId = eventIdOf(message) ?? 'missing';
      handledPerEvent.set(eventId, (handledPerEvent.get(eventId) ?? 0) + 1);
      const streamId = message.headers[RelayHeaders.streamId];
      handledRevisions.set(streamId, [
        ...(handledRevisions.get(streamId) ?? []),
        Number(message.headers[RelayHeaders.revision]),
      ]);
    };
    const deduped = dedupeByEventId(record, new InMemoryProcessedEventIds());
    await bus.subscribe({
      groupId: uniqueKafkaName('relay-crash-consumer'),
      topics,
      fromBeginning: true,
      maxAttempts: 3,
      backoff: { initialDelayMs: 10, maxDelayMs: 100 },
      handler: async (message, context) => {
        const eventId = eventIdOf(message) ?? 'missing';
        deliveries.set(eventId, (deliveries.get(eventId) ?? 0) + 1);
        await deduped(message, context);
      },
    });

    const killedAfter: number[] = [];
    for (let run = 0; run < KILLS; run += 1) {
      const relay = new TsChild(RELAY_SCRIPT, [filename, topicPrefix, String(BATCH_SIZE)]);
      children.push(relay);
      // Kill in the middle of a batch: on even runs while the n-th publish call is on its way, on
      // odd runs right after the broker acknowledged it but before the checkpoint is saved (the
      // batch is then published again). A round publishes its two topics at once; n >= 3 is past
      // the first round.
      const n = randomInt(3, 8);
      const inFlight = run % 2 === 0;
      const killPoint = inFlight ? `publishing ${n} ` : `published ${n}`;
      await relay.waitForLine(
        (line) => (inFlight ? line.startsWith(killPoint) : line === killPoint),
        `"${killPoint}" of run ${run + 1}`,
        60_000,
      );
      if (inFlight) await new Promise((resolve) => setTimeout(resolve, randomInt(0, 4)));
      relay.kill('SIGKILL');
      expect((await relay.exited).signal).toBe('SIGKILL');
      killedAfter.push(relay.lines.filter((l) => l.startsWith('published ')).length);
      await appendToEveryStream(EVENTS_PER_STREAM_BETWEEN_RUNS);
    }

    const last = new TsChild(RELAY_SCRIPT, [filename, topicPrefix, String(BATCH_SIZE)]);
    children.push(last);
    const all = await store.readAll();
    const expectedIds = all.map((e) => e.metadata.eventId);
    await waitFor(
      () => expectedIds.every((id) => handledPerEvent.has(id)),
      'every event handled after the last restart',
      120_000,
      50,
    );
    last.kill('SIGTERM');
    expect((await last.exited).code).toBe(0);

    // Each kill landed mid-run: the first round of that run was acknowledged, a later one was in flight.
    expect(killedAfter.every((published) => published >= 2)).toBe(true);
    expect(expectedIds).toHaveLength(STREAMS * (INITIAL_EVENTS_PER_STREAM + KILLS * EVENTS_PER_STREAM_BETWEEN_RUNS));
    expect(expectedIds.filter((id) => (deliveries.get(id) ?? 0) === 0)).toEqual([]);
    expect([...handledPerEvent].filter(([, count]) => count !== 1)).toEqual([]);
    expect(handledPerEvent.size).toBe(expectedIds.length);
    for (const [streamId, count] of revisions) {
      expect([streamId, handledRevisions.get(streamId)]).toEqual([
        streamId,
        Array.from({ length: count }, (_, i) => i),
      ]);
    }
    const duplicates = [...deliveries.values()].reduce((sum, c) => sum + c, 0) - expectedIds.length;
    process.stderr.write(
      `relay crash drill: ${expectedIds.length} events, ${duplicates} duplicate deliveries skipped by event id\n`,
    );
  });
});
