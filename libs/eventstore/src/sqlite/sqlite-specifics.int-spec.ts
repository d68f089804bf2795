import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { ConfigError, StoreUnavailableError } from '@lomo/contracts';
import { makeTempDir } from '../testing/sqlite-harness';
import { newTurnStreamId, sampleEventsFor, turnLeased, turnStarted } from '../testing/sample-events';
import { SqliteEventStore, type SqliteEventStoreOptions } from './sqlite-event-store';
import { DEFAULT_SYNCHRONOUS } from './sqlite-schema';

/** Behaviour specific to the SQLite adapter; the shared behaviour is in the contract suite. */
describe('SqliteEventStore specifics', () => {
  let temp: ReturnType<typeof makeTempDir>;
  let filename: string;
  const opened: SqliteEventStore[] = [];
  const open = (options: Partial<SqliteEventStoreOptions> = {}) => {
    const store = new SqliteEventStore({ filename, ...options });
    opened.push(store);
    return store;
  };

  beforeEach(() => {
    temp = makeTempDir('eventstore-specifics');
    filename = join(temp.dir, 'events.sqlite');
  });
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((s) => s.close()));
    temp.remove();
  });

  it('runs in WAL with synchronous=FULL by default, NORMAL on request, and the configured busy timeout', () => {
    expect(DEFAULT_SYNCHRONOUS).toBe('FULL');
    expect(open().settings()).toEqual({ journalMode: 'wal', synchronous: 'FULL', busyTimeoutMs: 5000 });
    expect(open({ synchronous: 'NORMAL', busyTimeoutMs: 250 }).settings()).toEqual({
      journalMode: 'wal',
      synchronous: 'NORMAL',
      busyTimeoutMs: 250,
    });
  });

  it('refuses an unknown synchronous mode with a ConfigError', () => {
    expect(() => open({ synchronous: 'OFF' as unknown as 'FULL' })).toThrow(ConfigError);
  });

  it('stamps occurredAt with the injected clock', async () => {
    const store = open({ now: () => new Date('2031-02-03T04:05:06.007Z') });
    const streamId = newTurnStreamId();
    await store.append(streamId, sampleEventsFor(streamId, 2), 'no_stream');
    const read = await store.readStream(streamId);
    expect(read.map((e) => e.metadata.occurredAt)).toEqual(['2031-02-03T04:05:06.007Z', '2031-02-03T04:05:06.007Z']);
  });

  it('runs the fault hook inside the write transaction: nothing is visible yet, and a throw rolls the batch back', async () => {
    const observer = open();
    const streamId = newTurnStreamId();
    const visibleAtHook: number[] = [];
    let fail = false;
    const store = open({
      hooks: {
        afterBeginBeforeCommit: ({ eventIds }) => {
          expect(eventIds).toHaveLength(2);
          visibleAtHook.push(observer.head());
          if (fail) throw new Error('crash before commit');
        },
      },
    });
    await store.append(streamId, sampleEventsFor(streamId, 2), 'no_stream');
    fail = true;
    await expect(store.append(streamId, [turnLeased(2), turnLeased(3)], 1)).rejects.toThrow('crash before commit');
    expect(visibleAtHook).toEqual([0, 2]);
    expect(await observer.streamRevision(streamId)).toBe(1);
  });

  it('group commit: appends made together commit in one transaction, each with its own outcome', async () => {
    const observer = open();
    const poisoned = randomUUID();
    const seenByOthers: number[] = [];
    const store = open({
      hooks: {
        afterBeginBeforeCommit: ({ eventIds }) => {
          seenByOthers.push(observer.head());
          if (eventIds.includes(poisoned)) throw new Error('this append fails alone');
        },
      },
    });
    const taken = newTurnStreamId();
    await store.append(taken, sampleEventsFor(taken, 1), 'no_stream');
    seenByOthers.length = 0;
    const fresh = Array.from({ length: 5 }, () => newTurnStreamId());
    const poisonedStream = newTurnStreamId();
    const repeated = sampleEventsFor(fresh[0], 1);
    const outcomes = await Promise.allSettled([
      ...fresh.map((id, i) => store.append(id, i === 0 ? repeated : sampleEventsFor(id, 2), 'no_stream')),
      // A conflict, a failing append and a repeat in the same group refuse or no-op only themselves.
      store.append(taken, [turnLeased(9)], 'no_stream'),
      store.append(poisonedStream, [turnStarted(poisonedStream, poisoned)], 'no_stream'),
      store.append(fresh[0], repeated, 'no_stream'),
    ]);
    expect(outcomes.map((o) => (o.status === 'fulfilled' ? o.value.written : o.reason.name))).toEqual([
      true,
      true,
      true,
      true,
      true,
      'ConcurrencyError',
      'Error',
      false,
    ]);
    // Each written append's hook ran before any of the group was visible to another connection.
    expect(seenByOthers).toEqual([1, 1, 1, 1, 1, 1]);
    expect(observer.head()).toBe(1 + 1 + 4 * 2);
    expect(await observer.streamRevision(poisonedStream)).toBe('no_stream');
    expect(await observer.streamRevision(taken)).toBe(0);
  });

  it('group commit: appends to one stream in one group apply in call order', async () => {
    const store = open();
    const streamId = newTurnStreamId();
    const results = await Promise.all(
      [
        store.append(streamId, [turnLeased(1)], 'no_stream'),
        store.append(streamId, [turnLeased(2)], 0),
        store.append(streamId, [turnLeased(3)], 0),
      ].map((p) =>
        p.then(
          (r) => r.nextExpectedRevision,
          (e: Error) => e.name,
        ),
      ),
    );
    expect(results).toEqual([0, 1, 'ConcurrencyError']);
  });

  it('subscribeToAllInBatches hands each page read to one call, in order, and checkpoints after it', async () => {
    const store = open();
    const streamId = newTurnStreamId();
    await store.append(streamId, sampleEventsFor(streamId, 5), 'no_stream');
    const pages: number[][] = [];
    const subscribe = () =>
      store.subscribeToAllInBatches({ subscriberId: 'pages', batchSize: 2 }, (page) => {
        pages.push(page.map((e) => e.metadata.revision));
      });
    const first = subscribe();
    await first.caughtUp;
    await first.stop();
    expect(pages).toEqual([[0, 1], [2, 3], [4]]);
    await store.append(streamId, [turnLeased(5)], 4);
    const again = subscribe();
    await again.caughtUp;
    await again.stop();
    expect(pages.at(-1)).toEqual([5]);
  });

  it('reports a write lock held past the busy timeout as a retriable StoreUnavailableError', async () => {
    const store = open({ busyTimeoutMs: 50 });
    const blocker = new Database(filename);
    try {
      blocker.prepare('BEGIN IMMEDIATE').run();
      const streamId = newTurnStreamId();
      const error: unknown = await store.append(streamId, sampleEventsFor(streamId, 1), 'any').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StoreUnavailableError);
      expect(error).toMatchObject({ code: 'STORE_UNAVAILABLE', retriable: true });
      blocker.prepare('ROLLBACK').run();
      await expect(store.append(streamId, sampleEventsFor(streamId, 1), 'any')).resolves.toMatchObject({
        written: true,
      });
    } finally {
      blocker.close();
    }
  });

  it('close stops running subscriptions (saving their checkpoints), then refuses every call', async () => {
    const store = open();
    const streamId = newTurnStreamId();
    const { position } = await store.append(streamId, sampleEventsFor(streamId, 3), 'no_stream');
    const subscription = store.subscribeToAll({ subscriberId: 'closing' }, () => undefined);
    await subscription.caughtUp;
    await store.close();
    await expect(subscription.done).resolves.toBeUndefined();
    await expect(store.readAll()).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(store.append(streamId, [turnLeased(3)], 'any')).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE' });
    expect(await open().getCheckpoint('closing')).toBe(position);
  });
});
