import { EventEmitter } from 'node:events';
import { KafkaJSGroupCoordinatorNotFound, KafkaJSConnectionError, type Kafka } from 'kafkajs';
import { waitFor } from '../testing/wait-for';
import { KafkaConsumerInstance } from './kafka-consumer';

/**
 * kafkajs leaves a consumer stopped, in a live process, after an error it files as not
 * retriable (e.g. "Failed to find group coordinator" right after a broker restart). These tests
 * drive our consumer through a stand-in for kafkajs' consumer object, because whether the real
 * client gives up depends on broker timing the real-broker drills cannot pin down
 * (test/distributed/multi-process/broker-restart.dist-spec.ts is where it was first seen).
 */
const events = { GROUP_JOIN: 'group_join', REBALANCING: 'rebalancing', CRASH: 'crash' } as const;

class FakeKafkaConsumer {
  readonly events = events;
  readonly calls: string[] = [];
  failConnects = 0;
  private readonly emitter = new EventEmitter();

  on(event: string, listener: (e: unknown) => void): () => void {
    this.emitter.on(event, listener);
    return () => this.emitter.off(event, listener);
  }
  async connect(): Promise<void> {
    this.calls.push('connect');
    if (this.failConnects > 0) {
      this.failConnects -= 1;
      throw new KafkaJSConnectionError('Connection error: connect ECONNREFUSED');
    }
  }
  async subscribe(): Promise<void> {
    this.calls.push('subscribe');
  }
  async run(): Promise<void> {
    this.calls.push('run');
  }
  async disconnect(): Promise<void> {
    this.calls.push('disconnect');
  }
  async commitOffsets(): Promise<void> {}

  join(): void {
    this.emitter.emit(events.GROUP_JOIN, { payload: { memberAssignment: { topic: [0, 1] } } });
  }
  /** What kafkajs does when it will not restart: disconnect, then report restart: false. */
  async crashForGood(error: Error): Promise<void> {
    await this.disconnect();
    this.emitter.emit(events.CRASH, { payload: { error, restart: false } });
  }
  count(call: string): number {
    return this.calls.filter((c) => c === call).length;
  }
}

function consumerOn(fake: FakeKafkaConsumer) {
  const logged: string[] = [];
  const log = (_context: Record<string, unknown>, message: string) => void logged.push(message);
  const instance = new KafkaConsumerInstance({
    kafka: { consumer: () => fake } as unknown as Kafka,
    admin: () => Promise.reject(new Error('no admin needed: fromBeginning')),
    subscription: {
      groupId: 'g',
      topics: ['topic'],
      handler: async () => undefined,
      maxAttempts: 1,
      backoff: { initialDelayMs: 1, maxDelayMs: 1 },
      fromBeginning: true,
    },
    tuning: {
      sessionTimeoutMs: 10_000,
      heartbeatIntervalMs: 1_000,
      rebalanceTimeoutMs: 10_000,
      maxWaitTimeMs: 100,
      maxBytesPerPartition: 1_000_000,
      partitionsConsumedConcurrently: 1,
      joinTimeoutMs: 5_000,
    },
    retry: { retries: 0 },
    deadLetters: { write: async () => true },
    logger: { info: log, warn: log, error: log },
    onStopped: () => undefined,
  });
  return { instance, logged };
}

async function started(fake: FakeKafkaConsumer) {
  const consumer = consumerOn(fake);
  const start = consumer.instance.start();
  await waitFor(() => fake.count('run') === 1, 'first run', 2_000, 5);
  fake.join();
  await start;
  return consumer;
}

// kafkajs' typings leave out the message its own code passes.
const CoordinatorNotFound = KafkaJSGroupCoordinatorNotFound as unknown as new (message: string) => Error;
const coordinatorNotFound = () => new CoordinatorNotFound('Failed to find group coordinator');

describe('Kafka consumer restart after a crash kafkajs does not restart from', () => {
  it('connects, subscribes and runs again, and is assigned partitions again', async () => {
    const fake = new FakeKafkaConsumer();
    const { instance, logged } = await started(fake);
    expect(instance.assignment()).toHaveLength(2);

    await fake.crashForGood(coordinatorNotFound());
    expect(instance.assignment()).toEqual([]);
    await waitFor(() => fake.count('run') === 2, 'the restart', 3_000, 10);
    expect(fake.calls.slice(-3)).toEqual(['connect', 'subscribe', 'run']);
    fake.join();
    expect(instance.assignment()).toHaveLength(2);
    expect(logged).toContain('bus consumer crashed and kafkajs gave up; restarting it');
    await instance.stop();
  });

  it('keeps trying while the broker refuses connections', async () => {
    const fake = new FakeKafkaConsumer();
    const { instance } = await started(fake);
    fake.failConnects = 2;
    await fake.crashForGood(coordinatorNotFound());
    await waitFor(() => fake.count('run') === 2, 'a restart once connections succeed', 10_000, 10);
    expect(fake.count('connect')).toBe(4);
    await instance.stop();
  }, 15_000);

  it('does not restart once stopped, even with a restart pending', async () => {
    const fake = new FakeKafkaConsumer();
    const { instance } = await started(fake);
    await fake.crashForGood(coordinatorNotFound());
    await instance.stop();
    const connects = fake.count('connect');
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect(fake.count('connect')).toBe(connects);
  });

  it('a crash before the first join still fails start() with our typed error', async () => {
    const fake = new FakeKafkaConsumer();
    const { instance } = consumerOn(fake);
    const start = instance.start();
    await waitFor(() => fake.count('run') === 1, 'first run', 2_000, 5);
    await fake.crashForGood(coordinatorNotFound());
    await expect(start).rejects.toMatchObject({ code: expect.any(String), retriable: expect.any(Boolean) });
    expect(fake.count('run')).toBe(1);
  });
});
