import type { ReceivedMessage } from '../event-bus.port';
import { SqliteBusLog } from './sqlite-bus-log';

describe('GroupCoordinator', () => {
  let log: SqliteBusLog;
  beforeEach(() => {
    log = SqliteBusLog.open({ filename: ':memory:' });
    log.ensureTopics([{ name: 't', partitions: 2 }]);
  });
  afterEach(() => log.close());

  const message = (offset: number): ReceivedMessage => ({
    topic: 't',
    partition: 0,
    offset,
    key: 'k',
    value: {},
    headers: {},
    timestamp: 0,
  });

  it('lets one member own a partition at a time and starts it at the committed offset', () => {
    const g = log.groups;
    expect(g.claim('g', 'm1', 't', 0, () => 0)).toBe(0);
    expect(g.claim('g', 'm2', 't', 0, () => 0)).toBeUndefined();
    expect(g.commit('g', 'm1', 't', 0, 5)).toBe(true);
    g.release('g', 'm1', 't', 0);
    expect(g.claim('g', 'm2', 't', 0, () => 0)).toBe(5);
  });

  it('commits the initial offset of a fresh claim, so a restart starts from the same place', () => {
    const g = log.groups;
    expect(g.claim('g', 'm1', 't', 1, () => 7)).toBe(7);
    expect(log.committedOffsets('g', 't', 2)).toEqual([
      { partition: 0, offset: null },
      { partition: 1, offset: 7 },
    ]);
  });

  it('refuses commits and dead letters from a member that lost the partition (fencing)', () => {
    const g = log.groups;
    g.heartbeat('g', 'm1', ['t'], 1_000, 0);
    g.claim('g', 'm1', 't', 0, () => 0);
    // m1 falls silent; m2's heartbeat expires it and takes the partition.
    const view = g.heartbeat('g', 'm2', ['t'], 20_000, 10_000);
    expect(view.expired).toEqual(['m1']);
    expect(view.owners).toEqual([]);
    expect(g.claim('g', 'm2', 't', 0, () => 0)).toBe(0);

    expect(g.commit('g', 'm1', 't', 0, 3)).toBe(false);
    expect(g.deadLetter('g', 'm1', message(0), { code: 'X', message: 'x' }, 3)).toBe(false);
    expect(log.readDeadLetters('g')).toEqual([]);
    expect(g.commit('g', 'm2', 't', 0, 1)).toBe(true);
  });

  it('records a dead letter and commits past it in one step', () => {
    const g = log.groups;
    g.claim('g', 'm1', 't', 0, () => 0);
    expect(g.deadLetter('g', 'm1', message(4), { code: 'BOOM', message: 'boom' }, 2)).toBe(true);
    expect(log.committedOffsets('g', 't', 2)[0]).toEqual({ partition: 0, offset: 5 });
    expect(log.readDeadLetters('g')).toMatchObject([
      { groupId: 'g', topic: 't', attempts: 2, error: { code: 'BOOM' }, message: { offset: 4 } },
    ]);
  });

  it('forgets a member that leaves, with its partitions', () => {
    const g = log.groups;
    g.heartbeat('g', 'm1', ['t'], 1_000, 0);
    g.claim('g', 'm1', 't', 0, () => 0);
    g.leave('g', 'm1');
    const view = g.heartbeat('g', 'm2', ['t'], 1_001, 0);
    expect(view.members.map((m) => m.memberId)).toEqual(['m2']);
    expect(view.owners).toEqual([]);
  });
});
