// A deleted note stays as a tombstone with its content erased: its idempotency key must stay
// taken, or a retried create after the delete would bring the note back.
export const NOTES_DDL = `
CREATE TABLE IF NOT EXISTS notes (
  workspace_id    TEXT NOT NULL,
  note_id         TEXT NOT NULL,
  idempotency_key TEXT NOT NULL,
  task_id         TEXT NOT NULL,
  title           TEXT NOT NULL,
  body            TEXT NOT NULL,
  created_at      TEXT NOT NULL,
  updated_at      TEXT NOT NULL,
  deleted_at      TEXT,
  PRIMARY KEY (workspace_id, note_id),
  UNIQUE (workspace_id, idempotency_key)
);
CREATE INDEX IF NOT EXISTS notes_by_recency ON notes (workspace_id, deleted_at, created_at);
CREATE TABLE IF NOT EXISTS effects (
  seq             INTEGER PRIMARY KEY AUTOINCREMENT,
  workspace_id    TEXT NOT NULL,
  idempotency_key TEXT NOT NULL,
  operation       TEXT NOT NULL,
  note_id         TEXT NOT NULL,
  outcome         TEXT NOT NULL,
  at              TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS effects_by_key ON effects (idempotency_key);
`;
