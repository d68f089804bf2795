import type Database from 'better-sqlite3';
import { deterministicUuid } from '@lomo/contracts';
import { openToolsDatabase, type ToolsDatabaseOptions } from '../../sqlite/open-tools-database';
import { NOTES_DDL } from './notes-schema';
import {
  NoteNotFoundError,
  type ChangeNoteRequest,
  type CreateNoteRequest,
  type EffectRecord,
  type Note,
  type NoteOperation,
  type NotesStore,
} from './notes-store.port';

interface NoteRow {
  workspace_id: string;
  note_id: string;
  task_id: string;
  title: string;
  body: string;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

interface EffectRow {
  seq: number;
  workspace_id: string;
  idempotency_key: string;
  operation: NoteOperation;
  note_id: string;
  outcome: EffectRecord['outcome'];
  at: string;
}

export const noteIdFor = (workspaceId: string, idempotencyKey: string): string =>
  deterministicUuid('lomo.note', workspaceId, idempotencyKey);

/**
 * Notes in SQLite. Each operation is one IMMEDIATE transaction that changes the note and records
 * the effect together, so "the note changed" and "the effect was recorded" never disagree.
 */
export class SqliteNotesStore implements NotesStore {
  private constructor(private readonly db: Database.Database) {}

  static open(options: ToolsDatabaseOptions): SqliteNotesStore {
    return new SqliteNotesStore(openToolsDatabase(options, NOTES_DDL));
  }

  async create(request: CreateNoteRequest): Promise<{ note: Note; created: boolean }> {
    const noteId = noteIdFor(request.workspaceId, request.idempotencyKey);
    const at = request.at.toISOString();
    const created = this.immediate(() => {
      const inserted = this.db
        .prepare(
          `INSERT INTO notes (workspace_id, note_id, idempotency_key, task_id, title, body, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
        )
        .run(request.workspaceId, noteId, request.idempotencyKey, request.taskId, request.title, request.body, at, at);
      const applied = inserted.changes === 1;
      this.recordEffect(request, 'note.created', noteId, applied ? 'applied' : 'deduplicated', at);
      return applied;
    });
    const row = this.row(request.workspaceId, noteId);
    // The key is taken by a deleted note: the create already happened once and is not repeated.
    if (!row) throw new NoteNotFoundError(noteId);
    return { note: toNote(row), created };
  }

  async list(workspaceId: string, options: { limit: number; titleContains?: string }): Promise<Note[]> {
    const pattern = options.titleContains === undefined ? '%' : `%${escapeLike(options.titleContains)}%`;
    const rows = this.db
      .prepare<[string, string, number], NoteRow>(
        `SELECT * FROM notes WHERE workspace_id = ? AND deleted_at IS NULL AND title LIKE ? ESCAPE '\\'
         ORDER BY created_at DESC, note_id DESC LIMIT ?`,
      )
      .all(workspaceId, pattern, options.limit);
    return rows.map(toNote);
  }

  async get(workspaceId: string, noteId: string): Promise<Note | undefined> {
    const row = this.row(workspaceId, noteId);
    return row ? toNote(row) : undefined;
  }

  async delete(request: ChangeNoteRequest): Promise<void> {
    const at = request.at.toISOString();
    const deleted = this.immediate(() => {
      const changed = this.db
        .prepare(
          `UPDATE notes SET title = '', body = '', updated_at = ?, deleted_at = ?
           WHERE workspace_id = ? AND note_id = ? AND deleted_at IS NULL`,
        )
        .run(at, at, request.workspaceId, request.noteId);
      const applied = changed.changes === 1;
      this.recordEffect(request, 'note.deleted', request.noteId, applied ? 'applied' : 'not_found', at);
      return applied;
    });
    if (!deleted) throw new NoteNotFoundError(request.noteId);
  }

  async appendLine(request: ChangeNoteRequest & { line: string }): Promise<Note> {
    const at = request.at.toISOString();
    const appended = this.immediate(() => {
      const changed = this.db
        .prepare(
          `UPDATE notes SET body = CASE WHEN body = '' THEN ? ELSE body || char(10) || ? END, updated_at = ?
           WHERE workspace_id = ? AND note_id = ? AND deleted_at IS NULL`,
        )
        .run(request.line, request.line, at, request.workspaceId, request.noteId);
      const applied = changed.changes === 1;
      this.recordEffect(request, 'note.line_appended', request.noteId, applied ? 'applied' : 'not_found', at);
      return applied;
    });
    const row = appended ? this.row(request.workspaceId, request.noteId) : undefined;
    if (!row) throw new NoteNotFoundError(request.noteId);
    return toNote(row);
  }

  async effects(filter: { workspaceId?: string; idempotencyKey?: string } = {}): Promise<EffectRecord[]> {
    const rows = this.db
      .prepare<[{ workspace: string | null; key: string | null }], EffectRow>(
        `SELECT * FROM effects
         WHERE (@workspace IS NULL OR workspace_id = @workspace) AND (@key IS NULL OR idempotency_key = @key)
         ORDER BY seq`,
      )
      .all({ workspace: filter.workspaceId ?? null, key: filter.idempotencyKey ?? null });
    return rows.map((r) => ({
      seq: r.seq,
      workspaceId: r.workspace_id,
      idempotencyKey: r.idempotency_key,
      operation: r.operation,
      noteId: r.note_id,
      outcome: r.outcome,
      at: r.at,
    }));
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }

  private immediate<T>(work: () => T): T {
    return this.db.transaction(work).immediate();
  }

  private recordEffect(
    request: { workspaceId: string; idempotencyKey: string },
    operation: NoteOperation,
    noteId: string,
    outcome: EffectRecord['outcome'],
    at: string,
  ): void {
    this.db
      .prepare(
        'INSERT INTO effects (workspace_id, idempotency_key, operation, note_id, outcome, at) VALUES (?, ?, ?, ?, ?, ?)',
      )
      .run(request.workspaceId, request.idempotencyKey, operation, noteId, outcome, at);
  }

  private row(workspaceId: string, noteId: string): NoteRow | undefined {
    return this.db
      .prepare<[string, string], NoteRow>(
        'SELECT * FROM notes WHERE workspace_id = ? AND note_id = ? AND deleted_at IS NULL',
      )
      .get(workspaceId, noteId);
  }
}

function toNote(row: NoteRow): Note {
  return {
    noteId: row.note_id,
    workspaceId: row.workspace_id,
    taskId: row.task_id,
    title: row.title,
    body: row.body,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);
