import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { EventStore } from '../event-store.port';
import { SqliteEventStore, type SqliteEventStoreOptions } from '../sqlite/sqlite-event-store';
import type { EventStoreHarness, RawStoredEvent } from './event-store-harness';

/** A fresh temporary directory for store files; `remove` deletes it with everything inside. */
export function makeTempDir(label: string): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), `lomo-${label}-`));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** SQLite harness for the contract suite: one temp file per harness, removed on dispose. */
export async function createSqliteHarness(
  options: Omit<SqliteEventStoreOptions, 'filename'> = {},
): Promise<EventStoreHarness> {
  const temp = makeTempDir('eventstore');
  const filename = join(temp.dir, 'events.sqlite');
  const opened: EventStore[] = [];
  const open = () => {
    const store = new SqliteEventStore({ pollIntervalMs: 10, ...options, filename });
    opened.push(store);
    return store;
  };
  return {
    store: open(),
    openAnother: async () => open(),
    insertRaw: async (event: RawStoredEvent) => insertRawEvent(filename, event),
    dispose: async () => {
      await Promise.all(opened.map((s) => s.close()));
      temp.remove();
    },
  };
}

/** Writes an event as an older version of the code would have, with no validation at all. */
export function insertRawEvent(filename: string, event: RawStoredEvent, occurredAt = '2024-01-01T00:00:00.000Z'): void {
  const db = new Database(filename, { timeout: 5_000 });
  try {
    db.transaction(() => {
      const last = db
        .prepare<[string], number>('SELECT max(revision) FROM events WHERE stream_id = ?')
        .pluck()
        .get(event.streamId);
      db.prepare(
        'INSERT INTO events (stream_id, revision, event_id, type, schema_version, data, metadata, occurred_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      ).run(
        event.streamId,
        (last ?? -1) + 1,
        event.eventId,
        event.type,
        event.schemaVersion,
        JSON.stringify(event.data),
        JSON.stringify(event.metadata),
        occurredAt,
      );
    }).immediate();
  } finally {
    db.close();
  }
}
