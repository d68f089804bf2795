import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { SqliteBusLog } from './sqlite-bus-log';
import { translateSqliteError } from './sqlite-errors';

describe('SqliteBusLog', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(path.join(tmpdir(), 'lomo-bus-log-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps messages, offsets and dead letters across a reopen of the file', () => {
    const filename = path.join(dir, 'bus.sqlite');
    const first = SqliteBusLog.open({ filename });
    first.ensureTopics([{ name: 't', partitions: 1 }]);
    first.append('t', [
      { partition: 0, key: 'a', value: '{"n":1}', headers: '{}' },
      { partition: 0, key: 'b', value: '{"n":2}', headers: '{"h":"v"}' },
    ]);
    first.groups.claim('g', 'm', 't', 0, () => 0);
    first.groups.commit('g', 'm', 't', 0, 1);
    first.close();

    const second = SqliteBusLog.open({ filename });
    expect(second.read('t', 0, 0, 10).map((m) => [m.offset, m.key, m.value, m.headers])).toEqual([
      [0, 'a', { n: 1 }, {}],
      [1, 'b', { n: 2 }, { h: 'v' }],
    ]);
    expect(second.committedOffsets('g', 't', 1)).toEqual([{ partition: 0, offset: 1 }]);
    expect(second.endOffset('t', 0)).toBe(2);
    second.close();
  });

  it('opens the file in WAL mode', () => {
    const filename = path.join(dir, 'wal.sqlite');
    SqliteBusLog.open({ filename }).close();
    const db = new Database(filename);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    db.close();
  });

  it('refuses a file written by a newer schema', () => {
    const filename = path.join(dir, 'future.sqlite');
    const db = new Database(filename);
    db.pragma('user_version = 99');
    db.close();
    expect(() => SqliteBusLog.open({ filename })).toThrow(expect.objectContaining({ code: 'BUS_STORAGE_FAILED' }));
  });

  it('maps SQLite contention to a retriable error and corruption to a permanent one', () => {
    expect(translateSqliteError(new Database.SqliteError('database is locked', 'SQLITE_BUSY'), 'append')).toMatchObject(
      { code: 'BUS_UNAVAILABLE', retriable: true },
    );
    expect(translateSqliteError(new Database.SqliteError('malformed', 'SQLITE_CORRUPT'), 'read')).toMatchObject({
      code: 'BUS_STORAGE_FAILED',
      retriable: false,
    });
  });

  it('fails as closed once closed', () => {
    const log = SqliteBusLog.open({ filename: ':memory:' });
    log.close();
    expect(() => log.read('t', 0, 0, 1)).toThrow(expect.objectContaining({ code: 'BUS_CLOSED' }));
  });
});
