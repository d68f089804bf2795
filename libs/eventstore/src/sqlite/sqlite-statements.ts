import type Database from 'better-sqlite3';
import { EVENT_COLUMNS, type EventRow } from './event-row';

type Db = Database.Database;

/** Every fixed statement, prepared once per connection (preparing costs more than running). */
export function prepareStatements(db: Db) {
  return {
    insert: db.prepare<[string, number, string, string, number, string, string, string]>(
      'INSERT INTO events (stream_id, revision, event_id, type, schema_version, data, metadata, occurred_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    ),
    lastRevision: db
      .prepare<[string], number>('SELECT revision FROM events WHERE stream_id = ? ORDER BY revision DESC LIMIT 1')
      .pluck(),
    byEventId: db
      .prepare<[string], [streamId: string, revision: number, position: number]>(
        'SELECT stream_id, revision, position FROM events WHERE event_id = ?',
      )
      .raw(),
    streamForwards: db
      .prepare<[string, number, number], EventRow>(
        `SELECT ${EVENT_COLUMNS} FROM events WHERE stream_id = ? AND revision >= ? ORDER BY revision ASC LIMIT ?`,
      )
      .raw(),
    streamBackwards: db
      .prepare<[string, number, number], EventRow>(
        `SELECT ${EVENT_COLUMNS} FROM events WHERE stream_id = ? AND revision <= ? ORDER BY revision DESC LIMIT ?`,
      )
      .raw(),
    head: db.prepare<[], number | null>('SELECT max(position) FROM events').pluck(),
    getCheckpoint: db.prepare<[string], number>('SELECT position FROM checkpoints WHERE subscriber_id = ?').pluck(),
    saveCheckpoint: db.prepare<[string, number, string]>(
      `INSERT INTO checkpoints (subscriber_id, position, updated_at) VALUES (?, ?, ?)
       ON CONFLICT (subscriber_id) DO UPDATE SET position = excluded.position, updated_at = excluded.updated_at`,
    ),
  };
}

export type Statements = ReturnType<typeof prepareStatements>;

const MAX_CACHED_FILTERS = 64;

/**
 * readAll statements depend on the filter's shape; they are cached by SQL text so a poller
 * does not re-prepare on every tick. Bounded because filters come from callers.
 */
export class ReadAllStatements {
  private readonly cache = new Map<string, Database.Statement<unknown[], EventRow>>();

  constructor(private readonly db: Db) {}

  get(filterSql: string): Database.Statement<unknown[], EventRow> {
    let statement = this.cache.get(filterSql);
    if (statement === undefined) {
      if (this.cache.size >= MAX_CACHED_FILTERS) this.cache.clear();
      statement = this.db
        .prepare<unknown[], EventRow>(
          `SELECT ${EVENT_COLUMNS} FROM events WHERE position > ?${filterSql} ORDER BY position ASC LIMIT ?`,
        )
        .raw();
      this.cache.set(filterSql, statement);
    }
    return statement;
  }
}
