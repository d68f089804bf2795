import { rebuildThreadsOf } from './rebuild-threads';

describe('rebuildThreadsOf: rebuild threads only where they can open both stores themselves', () => {
  const sqlite = { LOMO_EVENTSTORE: 'sqlite' as const, LOMO_SQLITE_PATH: '/data/events.sqlite' };
  const settings = { mongodbUrl: undefined, sqlitePath: '/data/read-models.sqlite', rebuildThreads: 2 };

  it('SQLite event store and SQLite read models: one thread per core, on the same files', () => {
    expect(rebuildThreadsOf(settings, sqlite)).toEqual({
      threads: 2,
      events: { filename: '/data/events.sqlite' },
      documents: { filename: '/data/read-models.sqlite' },
    });
  });

  it('none on MongoDB, on EventStoreDB, for in-memory files, or when no thread is wanted', () => {
    expect(rebuildThreadsOf({ ...settings, mongodbUrl: 'mongodb://127.0.0.1:27017' }, sqlite)).toBeUndefined();
    expect(rebuildThreadsOf(settings, { ...sqlite, LOMO_EVENTSTORE: 'eventstoredb' })).toBeUndefined();
    expect(rebuildThreadsOf({ ...settings, sqlitePath: ':memory:' }, sqlite)).toBeUndefined();
    expect(rebuildThreadsOf(settings, { ...sqlite, LOMO_SQLITE_PATH: 'file:events?mode=memory' })).toBeUndefined();
    expect(rebuildThreadsOf({ ...settings, rebuildThreads: 0 }, sqlite)).toBeUndefined();
  });
});
