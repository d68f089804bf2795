import { randomUUID } from 'node:crypto';
import type { Caller } from '@lomo/auth';
import { InProcessEventBus, type ConsumerHandle, type EventBus } from '@lomo/bus';
import { InMemoryEventStore, waitFor } from '@lomo/bus/testing';
import { systemClock } from '@lomo/contracts';
import { BusUnavailableError } from '@lomo/bus';
import { UnknownTargetError } from '../../errors';
import { DeadLetterNotRedrivableError } from './dead-letter-errors';
import { formatDeadLetterId } from './dead-letter-ids';
import { listDeadLetters } from './list-dead-letters';
import { redriveDeadLetters } from './redrive-dead-letters';

const operator: Caller = { tokenId: 't-op', tokenName: 'ops', workspaceId: 'ops', userId: 'sam', kind: 'operator' };
const deps = { clock: systemClock, ids: { uuid: () => randomUUID() } };
const [ALPHA, BETA] = ['lomo.events.task', 'lomo.events.turn'];

describe('redriveDeadLetters on one bus', () => {
  let bus: InProcessEventBus;
  let events: InMemoryEventStore;
  let consumer: ConsumerHandle;
  let refusedTopic: string | undefined;
  let sources: { events: InMemoryEventStore; bus: Pick<EventBus, 'readDeadLetters' | 'publish'> };

  beforeEach(async () => {
    refusedTopic = undefined;
    events = new InMemoryEventStore();
    bus = InProcessEventBus.open({ filename: ':memory:', pollIntervalMs: 10, heartbeatIntervalMs: 50 });
    await bus.ensureTopics([ALPHA, BETA].map((name) => ({ name, partitions: 1 })));
    // The router's handler fails every time: each message, and each copy, is dead-lettered.
    consumer = await bus.subscribe({
      groupId: 'router',
      topics: [ALPHA, BETA],
      fromBeginning: true,
      maxAttempts: 1,
      backoff: { initialDelayMs: 1, maxDelayMs: 1 },
      handler: async () => {
        throw new Error('still failing');
      },
    });
    sources = {
      events,
      bus: {
        readDeadLetters: (g) => bus.readDeadLetters(g),
        publish: async (topic, messages) => {
          if (topic === refusedTopic) throw new BusUnavailableError(`${topic} refused`);
          await bus.publish(topic, messages);
        },
      },
    };
  });

  afterEach(async () => {
    await consumer.stop();
    await bus.close();
  });

  const deadLetters = (n: number) =>
    waitFor(async () => (await bus.readDeadLetters('router')).length === n, `${n} dead letters`, 5_000);

  it('records a partial redrive: the letters the bus refused stay open, the others are marked redriven', async () => {
    await bus.publish(ALPHA, [{ key: 'a', value: { n: 1 } }]);
    await bus.publish(BETA, [{ key: 'b', value: { n: 2 } }]);
    await deadLetters(2);
    const [alpha, beta] = ['a', 'b'].map((key) =>
      formatDeadLetterId({
        kind: 'bus',
        groupId: 'router',
        topic: key === 'a' ? ALPHA : BETA,
        partition: 0,
        offset: 0,
      }),
    );
    refusedTopic = BETA;

    const result = await redriveDeadLetters(sources, operator, { group: 'router', confirm: true }, deps);
    expect(result.redriven).toEqual([{ id: alpha, source: 'bus' }]);
    expect(result.failed).toEqual([{ id: beta, source: 'bus', error: `${BETA} refused` }]);
    const [action] = await events.readAll({ filter: { eventTypes: ['OperatorActionRecorded'] } });
    expect(action.data).toMatchObject({
      outcome: 'partial',
      details: { group: 'router', ids: [alpha], failed: [beta] },
    });
    // The copy that did go out fails again (the handler still fails): a third letter, open.
    await deadLetters(3);
    const copy = formatDeadLetterId({ kind: 'bus', groupId: 'router', topic: ALPHA, partition: 0, offset: 1 });
    const rows = await listDeadLetters(sources, operator, { group: 'router' });
    expect(rows.map((r) => [r.id, r.redriven])).toEqual([
      [alpha, true],
      [beta, false],
      [copy, false],
    ]);
  });

  it('a copy that fails again is a new dead letter of its own, open to another redrive', async () => {
    await bus.publish(ALPHA, [{ key: 'a', value: { n: 1 } }]);
    await deadLetters(1);
    const first = formatDeadLetterId({ kind: 'bus', groupId: 'router', topic: ALPHA, partition: 0, offset: 0 });
    await redriveDeadLetters(sources, operator, { ids: [first], confirm: true }, deps);
    await deadLetters(2);
    const open = await listDeadLetters(sources, operator, { state: 'open' });
    const copy = formatDeadLetterId({ kind: 'bus', groupId: 'router', topic: ALPHA, partition: 0, offset: 1 });
    expect(open.map((r) => [r.id, r.source, r.redrivable])).toEqual([[copy, 'bus', true]]);
    const again = await redriveDeadLetters(sources, operator, { source: 'bus', confirm: true }, deps);
    expect(again.redriven).toEqual([{ id: copy, source: 'bus' }]);
  });

  it('refuses a record the bus could not decode, and filters it by source and workspace like the rest', async () => {
    const undecodable = {
      groupId: 'router',
      topic: ALPHA,
      message: {
        topic: ALPHA,
        partition: 0,
        offset: 5,
        key: 'k',
        value: { raw: 'not json' },
        headers: {},
        timestamp: 0,
      },
      error: { code: 'BUS_UNDECODABLE_MESSAGE', message: 'offset 5: value is not JSON' },
      attempts: 0,
      deadLetteredAt: new Date().toISOString(),
    };
    const withRecord = { ...sources, bus: { ...sources.bus, readDeadLetters: async () => [undecodable] } };
    const id = formatDeadLetterId({ kind: 'bus', groupId: 'router', topic: ALPHA, partition: 0, offset: 5 });
    const [row] = await listDeadLetters(withRecord, operator);
    expect([row.id, row.redrivable, row.redriven]).toEqual([id, false, false]);
    await expect(redriveDeadLetters(withRecord, operator, { ids: [id], confirm: true }, deps)).rejects.toBeInstanceOf(
      DeadLetterNotRedrivableError,
    );
    expect(await redriveDeadLetters(withRecord, operator, { group: 'router', confirm: true }, deps)).toEqual({
      redriven: [],
      failed: [],
      actionIds: [],
    });
    expect(await listDeadLetters(withRecord, operator, { source: 'memory' })).toEqual([]);
    expect(await listDeadLetters(withRecord, operator, { workspaceId: 'ws1' })).toEqual([]);
    await expect(listDeadLetters(withRecord, operator, { group: 'no-such-group' })).rejects.toBeInstanceOf(
      UnknownTargetError,
    );
  });
});
