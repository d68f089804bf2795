import { LomoError } from '@lomo/contracts';

export const NOTES_STORE = Symbol('NOTES_STORE');

export interface Note {
  /** Derived from (workspace, idempotency key): the same create call always names the same note. */
  noteId: string;
  workspaceId: string;
  /** The task that wrote it; notes belong to the workspace and outlive tasks. */
  taskId: string;
  title: string;
  body: string;
  createdAt: string;
  updatedAt: string;
}

export type NoteOperation = 'note.created' | 'note.deleted' | 'note.line_appended';

/**
 * One row per operation that reached the store, written in the same transaction as the change.
 * `applied` means the effect happened; the other outcomes mean the call ran but changed nothing.
 * Counting rows per idempotency key tells a test whether a call ran more than once.
 */
export interface EffectRecord {
  seq: number;
  workspaceId: string;
  idempotencyKey: string;
  operation: NoteOperation;
  noteId: string;
  outcome: 'applied' | 'deduplicated' | 'not_found';
  at: string;
}

export interface CreateNoteRequest {
  workspaceId: string;
  taskId: string;
  title: string;
  body: string;
  idempotencyKey: string;
  at: Date;
}

export interface ChangeNoteRequest {
  workspaceId: string;
  noteId: string;
  idempotencyKey: string;
  at: Date;
}

export interface NotesStore {
  /** Idempotent by (workspace, key): a repeat returns the first note with `created: false`. */
  create(request: CreateNoteRequest): Promise<{ note: Note; created: boolean }>;
  /** Live notes of a workspace, newest first. */
  list(workspaceId: string, options: { limit: number; titleContains?: string }): Promise<Note[]>;
  get(workspaceId: string, noteId: string): Promise<Note | undefined>;
  /**
   * Erases the note's content for good. Not idempotent on purpose: every call is recorded as an
   * effect, so a repeated call shows up. Throws NoteNotFoundError when there is nothing to delete.
   */
  delete(request: ChangeNoteRequest): Promise<void>;
  /** Appends a line on every call, even with a key already seen (the fault tests' non-idempotent effect). */
  appendLine(request: ChangeNoteRequest & { line: string }): Promise<Note>;
  effects(filter?: { workspaceId?: string; idempotencyKey?: string }): Promise<EffectRecord[]>;
  close(): Promise<void>;
}

export class NoteNotFoundError extends LomoError {
  readonly code = 'NOTE_NOT_FOUND';
  readonly retriable = false;
  constructor(readonly noteId: string) {
    super(`There is no note ${noteId} in this workspace (it may have been deleted).`, { noteId });
  }
}
