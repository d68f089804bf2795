import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { EventBus, ReceivedMessage } from '../event-bus.port';
import { waitFor } from '../testing/wait-for';
import { InProcessEventBus } from './in-process-event-bus';
import { SqliteBusLog } from './sqlite-bus-log';

const backoff = { initialDelayMs: 1, maxDelayMs: 5 };

describe('InProcessEventBus specifics', () => {
  let log: SqliteBusLog;
  const buses: EventBus[] = [];
  const open = (options: ConstructorParameters<typeof InProcessEventBus>[1] = {}) => {
    const bus = new InProcessEventBus(log, options, false);
    buses.push(bus);
    return bus;
  };
  beforeEach(() => {
    log = SqliteBusLog.open({ filename: ':memory:' });
  });
  afterEach(async () => {
    for (const bus of buses.splice(0)) await bus.close();
    log.close();
  });

  it('dead-letters at once an error the subscription calls not retriable', async () => {
    const bus = open();
    await bus.ensureTopics([{ name: 't', partitions: 1 }]);
    const attempts: number[] = [];
    await bus.subscribe({
      groupId: 'g',
      topics: ['t'],
      maxAttempts: 5,
      backoff,
      fromBeginning: true,
      isRetriable: (error) => !(error instanceof RangeError),
      handler: async (_m, { attempt }) => {
        attempts.push(attempt);
        throw new RangeError('never valid');
      },
    });
    await bus.publish('t', [{ key: 'k', value: {} }]);
    await waitFor(async () => (await bus.readDeadLetters('g')).length === 1, 'the dead letter', 5_000);
    expect(attempts).toEqual([1]);
    expect((await bus.readDeadLetters('g'))[0]).toMatchObject({
      attempts: 1,
      error: { code: 'HANDLER_FAILED', message: 'never valid' },
    });
  });

  it('refuses an invalid subscription with a validation error', async () => {
    const bus = open();
    await bus.ensureTopics([{ name: 't', partitions: 1 }]);
    await expect(
      bus.subscribe({ groupId: 'bad group', topics: ['t'], maxAttempts: 0, backoff, handler: async () => undefined }),
    ).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      issues: [expect.objectContaining({ path: 'groupId' }), expect.objectContaining({ path: 'maxAttempts' })],
    });
  });

  it('fails every call with BUS_CLOSED after close, and stops its consumers', async () => {
    const bus = open();
    await bus.ensureTopics([{ name: 't', partitions: 2 }]);
    const handle = await bus.subscribe({
      groupId: 'g',
      topics: ['t'],
      maxAttempts: 1,
      backoff,
      handler: async () => undefined,
    });
    await bus.close();
    expect(handle.assignment()).toEqual([]);
    await expect(bus.publish('t', [{ key: 'k', value: {} }])).rejects.toMatchObject({
      code: 'BUS_CLOSED',
      retriable: false,
    });
  });

  it('an instance silent past the session timeout loses its partitions, and its late commit is refused', async () => {
    // Two paths to one file: in-process wake-ups are per path, so the two buses only meet
    // through the file, as two processes do. `slow` heartbeats only when it joins.
    const dir = mkdtempSync(path.join(tmpdir(), 'lomo-bus-fence-'));
    symlinkSync(dir, `${dir}-link`);
    const warnings: string[] = [];
    const logger = {
      info: () => undefined,
      error: () => undefined,
      warn: (_c: Record<string, unknown>, message: string) => void warnings.push(message),
    };
    const slow = InProcessEventBus.open({
      filename: path.join(dir, 'bus.sqlite'),
      heartbeatIntervalMs: 60_000,
      sessionTimeoutMs: 60_000,
      pollIntervalMs: 20,
      logger,
    });
    const live = InProcessEventBus.open({
      filename: path.join(`${dir}-link`, 'bus.sqlite'),
      heartbeatIntervalMs: 50,
      sessionTimeoutMs: 300,
      pollIntervalMs: 20,
    });
    buses.push(slow, live);
    try {
      await slow.ensureTopics([{ name: 't', partitions: 2 }]);
      let release: () => void = () => undefined;
      const gate = new Promise<void>((resolve) => (release = resolve));
      const bySlow: ReceivedMessage[] = [];
      const byLive: ReceivedMessage[] = [];
      const stuck = await slow.subscribe({
        groupId: 'g',
        topics: ['t'],
        maxAttempts: 1,
        backoff,
        fromBeginning: true,
        handler: async (m) => {
          bySlow.push(m);
          await gate;
        },
      });
      await slow.publish('t', [{ key: 'k', value: { n: 1 } }]);
      await waitFor(() => bySlow.length === 1, 'the slow instance to take the message', 5_000);

      await live.subscribe({
        groupId: 'g',
        topics: ['t'],
        maxAttempts: 1,
        backoff,
        fromBeginning: true,
        handler: async (m) => void byLive.push(m),
      });
      await waitFor(() => byLive.length === 1, 'the live instance to take over and redeliver', 5_000);
      release();
      await waitFor(() => warnings.includes('partition lost to another member'), 'the late commit refused', 5_000);
      expect(stuck.assignment().length).toBeLessThan(2);
      expect(byLive[0].offset).toBe(bySlow[0].offset);
      expect(await live.committedOffsets('g', 't')).toContainEqual({
        partition: byLive[0].partition,
        offset: byLive[0].offset + 1,
      });
    } finally {
      await slow.close();
      await live.close();
      rmSync(`${dir}-link`, { force: true });
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
