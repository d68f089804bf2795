import type Database from 'better-sqlite3';
import { BusStorageError } from '../errors';

const SCHEMA_VERSION = 1;

// Offsets are per (topic, partition) and dense from 0, as in Kafka. Group membership and
// partition ownership live in the file too, so instances in several processes share a group.
const ddl = `
CREATE TABLE IF NOT EXISTS bus_topics (
  name TEXT PRIMARY KEY,
  partitions INTEGER NOT NULL,
  created_at INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS bus_messages (
  topic TEXT NOT NULL,
  partition INTEGER NOT NULL,
  msg_offset INTEGER NOT NULL,
  msg_key TEXT NOT NULL,
  value TEXT NOT NULL,
  headers TEXT NOT NULL,
  accepted_at INTEGER NOT NULL,
  PRIMARY KEY (topic, partition, msg_offset)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS bus_committed_offsets (
  group_id TEXT NOT NULL,
  topic TEXT NOT NULL,
  partition INTEGER NOT NULL,
  next_offset INTEGER NOT NULL,
  committed_at INTEGER NOT NULL,
  PRIMARY KEY (group_id, topic, partition)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS bus_group_members (
  group_id TEXT NOT NULL,
  member_id TEXT NOT NULL,
  topics TEXT NOT NULL,
  heartbeat_at INTEGER NOT NULL,
  PRIMARY KEY (group_id, member_id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS bus_partition_owners (
  group_id TEXT NOT NULL,
  topic TEXT NOT NULL,
  partition INTEGER NOT NULL,
  member_id TEXT NOT NULL,
  PRIMARY KEY (group_id, topic, partition)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS bus_dead_letters (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  group_id TEXT NOT NULL,
  topic TEXT NOT NULL,
  partition INTEGER NOT NULL,
  msg_offset INTEGER NOT NULL,
  msg_key TEXT NOT NULL,
  value TEXT NOT NULL,
  headers TEXT NOT NULL,
  accepted_at INTEGER NOT NULL,
  error_code TEXT NOT NULL,
  error_message TEXT NOT NULL,
  attempts INTEGER NOT NULL,
  dead_lettered_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS bus_dead_letters_by_group ON bus_dead_letters (group_id, id);
`;

export function migrateBusLog(db: Database.Database): void {
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version > SCHEMA_VERSION) {
    throw new BusStorageError(`Bus log schema ${version} is newer than this code (${SCHEMA_VERSION})`);
  }
  // Up to date: no write at all, so opening the log to read it (`lomo dlq list`) leaves the file as it was.
  if (version === SCHEMA_VERSION) return;
  db.transaction(() => {
    db.exec(ddl);
    db.pragma(`user_version = ${SCHEMA_VERSION}`);
  }).immediate();
}
