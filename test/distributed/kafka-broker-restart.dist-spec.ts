import { isLomoError } from '@lomo/contracts';
import { createKafkaEventBus, type KafkaEventBus, type KafkaEventBusOptions } from '@lomo/bus';
import { waitFor } from '@lomo/bus/testing';
import { isBrokerRunning, kafkaBroker } from './support/broker-control';
import { kafkaBrokers, testBusLogger, uniqueKafkaName } from './support/kafka-test-env';

const BATCH = 10;
const IMPATIENT = { retries: 1, initialRetryTimeMs: 100, maxRetryTimeMs: 300 };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

jest.setTimeout(300_000);

/**
 * The broker goes away (clean stop, data kept) while a group consumes and a publisher keeps
 * publishing, then comes back. jest 30 fails a test on any unhandled rejection, so a pass also
 * shows that nothing in the clients' reconnect paths rejected unobserved.
 */
describe('Kafka bus across a broker restart', () => {
  const buses: KafkaEventBus[] = [];

  afterAll(async () => {
    // Leave the broker as the other suites expect it, even when the test failed half way.
    if (!(await isBrokerRunning())) await kafkaBroker('start');
    await Promise.all(buses.map((bus) => bus.close()));
  });

  it('loses nothing that was acknowledged, and consumption resumes when the broker is back', async () => {
    const open = (name: string, retry?: KafkaEventBusOptions['retry']) => {
      const bus = createKafkaEventBus({
        brokers: kafkaBrokers,
        clientId: `lomo-restart-${name}`,
        logger: testBusLogger(`broker-restart:${name}`),
        retry,
      });
      buses.push(bus);
      return bus;
    };
    // "patient" rides the outage out on kafkajs' retries (the defaults); "impatient" gives up
    // within a second, so its publishes reject, its producer is replaced and the loop retries.
    const publishers = [
      new PublishLoop('patient', open('patient'), 0),
      new PublishLoop('impatient', open('impatient', IMPATIENT), 1_000_000),
    ];
    const consumer = open('consumer');
    const topic = uniqueKafkaName('broker-restart');
    await consumer.ensureTopics([{ name: topic, partitions: 4 }]);

    const received = new Set<number>();
    await consumer.subscribe({
      groupId: uniqueKafkaName('broker-restart-group'),
      topics: [topic],
      fromBeginning: true,
      maxAttempts: 5,
      backoff: { initialDelayMs: 50, maxDelayMs: 500 },
      handler: async (message) => {
        received.add(Number(message.value.seq));
      },
    });
    for (const p of publishers) p.start(topic);
    const acknowledged = () => publishers.flatMap((p) => p.acknowledged);

    await waitFor(
      () => publishers.every((p) => p.acknowledged.length >= 200) && received.size >= 100,
      'traffic before the restart',
      60_000,
      20,
    );
    for (const p of publishers) p.phase = 'outage';
    await kafkaBroker('stop');
    await sleep(1_000);
    await kafkaBroker('start');
    const before = publishers.map((p) => p.acknowledged.length);
    for (const p of publishers) p.phase = 'after';
    await waitFor(
      () => publishers.every((p, i) => p.acknowledged.length >= before[i] + 200),
      'publishes acknowledged after the restart',
      120_000,
      50,
    );
    await Promise.all(publishers.map((p) => p.stop()));

    await waitFor(
      () => acknowledged().every((seq) => received.has(seq)),
      'every acknowledged message consumed',
      120_000,
      50,
    );
    expect(acknowledged().filter((seq) => !received.has(seq))).toEqual([]);
    for (const [i, p] of publishers.entries()) {
      const afterRestart = p.acknowledged.slice(before[i]);
      expect([p.name, afterRestart.every((seq) => received.has(seq))]).toEqual([p.name, true]);
      // Each publisher had work in flight while the broker was away.
      expect([p.name, p.startedInOutage > 0]).toEqual([p.name, true]);
      // Whatever publish rejected with is our typed, retriable error, never a raw kafkajs one.
      expect(p.failures.filter((e) => !isLomoError(e) || e.retriable !== true)).toEqual([]);
    }
    expect(publishers[1].failures.length).toBeGreaterThan(0);
    process.stderr.write(
      `broker restart drill: ${publishers.map((p) => `${p.name} ${p.acknowledged.length} acknowledged, ${p.failures.length} rejected and retried`).join('; ')}\n`,
    );
  });
});

/**
 * Publishes batches in a loop. A batch counts as acknowledged only once publish resolved; a
 * rejected batch is retried as it is (the port allows the duplicates this may make).
 */
class PublishLoop {
  readonly acknowledged: number[] = [];
  readonly failures: unknown[] = [];
  phase: 'before' | 'outage' | 'after' = 'before';
  startedInOutage = 0;
  private stopping = false;
  private loop: Promise<void> | undefined;

  constructor(
    readonly name: string,
    private readonly bus: KafkaEventBus,
    private nextSeq: number,
  ) {}

  start(topic: string): void {
    this.loop = this.run(topic);
  }

  async stop(): Promise<void> {
    this.stopping = true;
    await this.loop;
  }

  private async run(topic: string): Promise<void> {
    while (!this.stopping) {
      const seqs = Array.from({ length: BATCH }, () => this.nextSeq++);
      const messages = seqs.map((seq) => ({ key: `key-${seq % 16}`, value: { seq } }));
      for (;;) {
        if (this.phase === 'outage') this.startedInOutage += 1;
        try {
          await this.bus.publish(topic, messages);
          this.acknowledged.push(...seqs);
          break;
        } catch (error) {
          this.failures.push(error);
          if (this.stopping) return;
          await sleep(200);
        }
      }
      await sleep(5);
    }
  }
}
