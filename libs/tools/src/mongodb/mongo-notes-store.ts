import type { Collection, Db } from 'mongodb';
import { noteIdFor } from '../starter/notes/sqlite-notes-store';
import {
  NoteNotFoundError,
  type ChangeNoteRequest,
  type CreateNoteRequest,
  type EffectRecord,
  type Note,
  type NoteOperation,
  type NotesStore,
} from '../starter/notes/notes-store.port';
import { guard, insertNext, isDuplicateKey } from './mongo-tool-errors';

interface NoteDoc {
  _id: string;
  workspaceId: string;
  idempotencyKey: string;
  taskId: string;
  title: string;
  /** The body as created; appended lines live in their own documents (see appendLine). */
  body: string;
  createdAt: string;
  updatedAt: string;
  deleted: boolean;
}

interface LineDoc {
  /** `${noteId}:${n}`: the unique insert that orders concurrent appends. */
  _id: string;
  noteId: string;
  n: number;
  line: string;
}

interface EffectDoc extends Omit<EffectRecord, 'seq'> {
  _id: number;
}

export interface MongoNotesStoreOptions {
  db: Db;
  /** Collection name prefix; default `tools_notes`. */
  prefix?: string;
}

const STORE = 'MongoDB notes store';

/**
 * Notes on MongoDB or FerretDB, for executors that share no disk. Same semantics as
 * SqliteNotesStore, built only on what is atomic on FerretDB 1.24 too: single-document writes by
 * `_id` and unique inserts (no transactions, and its filtered updates are read-then-write, see
 * libs/read-models/src/document-store/mongodb/server-profile.ts). So:
 * - create is a unique insert of the note id derived from (workspace, key);
 * - a delete wins by inserting the note's deletion claim, then erases the content;
 * - each appended line is a document of its own whose `_id` carries its position, claimed by a
 *   unique insert, so racing appends never overwrite each other;
 * - effect rows get their `seq` the same way.
 * Without transactions the change and its effect row are two writes: a process killed between
 * them leaves the change without its row (the gap libs/tools/src/testing/effects/record-effects.ts
 * describes for the drills' log).
 */
export class MongoNotesStore implements NotesStore {
  private readonly notes: Collection<NoteDoc>;
  private readonly lines: Collection<LineDoc>;
  private readonly deletions: Collection<{ _id: string; at: string }>;
  private readonly effectRows: Collection<EffectDoc>;
  private indexes: Promise<unknown> | undefined;

  constructor(options: MongoNotesStoreOptions) {
    const prefix = options.prefix ?? 'tools_notes';
    this.notes = options.db.collection(prefix);
    this.lines = options.db.collection(`${prefix}_lines`);
    this.deletions = options.db.collection(`${prefix}_deletions`);
    this.effectRows = options.db.collection(`${prefix}_effects`);
  }

  async create(request: CreateNoteRequest): Promise<{ note: Note; created: boolean }> {
    const noteId = noteIdFor(request.workspaceId, request.idempotencyKey);
    const at = request.at.toISOString();
    return guard(STORE, 'create', async () => {
      await this.ready();
      let created = true;
      try {
        await this.notes.insertOne({
          _id: noteId,
          workspaceId: request.workspaceId,
          idempotencyKey: request.idempotencyKey,
          taskId: request.taskId,
          title: request.title,
          body: request.body,
          createdAt: at,
          updatedAt: at,
          deleted: false,
        });
      } catch (error) {
        if (!isDuplicateKey(error)) throw error;
        created = false;
      }
      await this.recordEffect(request, 'note.created', noteId, created ? 'applied' : 'deduplicated', at);
      const note = await this.live(request.workspaceId, noteId);
      // The key is taken by a deleted note: the create already happened once and is not repeated.
      if (!note) throw new NoteNotFoundError(noteId);
      return { note, created };
    });
  }

  async list(workspaceId: string, options: { limit: number; titleContains?: string }): Promise<Note[]> {
    return guard(STORE, 'list', async () => {
      const filter: Record<string, unknown> = { workspaceId, deleted: false };
      if (options.titleContains !== undefined) filter.title = { $regex: escapeRegex(options.titleContains) };
      const docs = await this.notes
        .find(filter)
        .sort({ createdAt: -1, _id: -1 })
        .limit(Math.max(0, Math.floor(options.limit)))
        .toArray();
      return this.withLines(docs);
    });
  }

  async get(workspaceId: string, noteId: string): Promise<Note | undefined> {
    return guard(STORE, 'get', () => this.live(workspaceId, noteId));
  }

  async delete(request: ChangeNoteRequest): Promise<void> {
    const at = request.at.toISOString();
    const applied = await guard(STORE, 'delete', async () => {
      await this.ready();
      const doc = await this.notes.findOne({ _id: request.noteId, workspaceId: request.workspaceId });
      let won = false;
      if (doc !== null) {
        try {
          await this.deletions.insertOne({ _id: request.noteId, at });
          won = true;
        } catch (error) {
          if (!isDuplicateKey(error)) throw error;
        }
        // Erasing is idempotent: a loser repeats it, which also finishes a winner killed midway.
        await this.erase(request.noteId, won ? at : undefined);
      }
      await this.recordEffect(request, 'note.deleted', request.noteId, won ? 'applied' : 'not_found', at);
      return won;
    });
    if (!applied) throw new NoteNotFoundError(request.noteId);
  }

  async appendLine(request: ChangeNoteRequest & { line: string }): Promise<Note> {
    const at = request.at.toISOString();
    const note = await guard(STORE, 'appendLine', async () => {
      await this.ready();
      let appended: Note | undefined;
      if (await this.live(request.workspaceId, request.noteId)) {
        const n = await insertNext(
          async () => ((await this.lines.find({ noteId: request.noteId }).sort({ n: -1 }).limit(1).next())?.n ?? 0) + 1,
          (n) => this.lines.insertOne({ _id: `${request.noteId}:${n}`, noteId: request.noteId, n, line: request.line }),
        );
        await this.notes.updateOne({ _id: request.noteId, deleted: false }, { $set: { updatedAt: at } });
        // A delete that raced this append may have erased the lines before ours landed: then the
        // append counts as after the delete, and our line must not outlive the note.
        if (await this.deletions.findOne({ _id: request.noteId })) {
          await this.lines.deleteOne({ _id: `${request.noteId}:${n}` });
        } else {
          appended = await this.live(request.workspaceId, request.noteId);
        }
      }
      await this.recordEffect(request, 'note.line_appended', request.noteId, appended ? 'applied' : 'not_found', at);
      return appended;
    });
    if (!note) throw new NoteNotFoundError(request.noteId);
    return note;
  }

  async effects(filter: { workspaceId?: string; idempotencyKey?: string } = {}): Promise<EffectRecord[]> {
    return guard(STORE, 'effects', async () => {
      const query: Record<string, unknown> = {};
      if (filter.workspaceId !== undefined) query.workspaceId = filter.workspaceId;
      if (filter.idempotencyKey !== undefined) query.idempotencyKey = filter.idempotencyKey;
      const rows = await this.effectRows.find(query).sort({ _id: 1 }).toArray();
      return rows.map(({ _id, ...rest }) => ({
        seq: _id,
        workspaceId: rest.workspaceId,
        idempotencyKey: rest.idempotencyKey,
        operation: rest.operation,
        noteId: rest.noteId,
        outcome: rest.outcome,
        at: rest.at,
      }));
    });
  }

  /** The client belongs to whoever opened it (one per process, shared with the blob store). */
  async close(): Promise<void> {}

  private ready(): Promise<unknown> {
    this.indexes ??= Promise.all([
      this.notes.createIndex({ workspaceId: 1, deleted: 1, createdAt: -1 }),
      this.lines.createIndex({ noteId: 1, n: 1 }),
      this.effectRows.createIndex({ idempotencyKey: 1 }),
    ]).catch((error: unknown) => {
      this.indexes = undefined;
      throw error;
    });
    return this.indexes;
  }

  private async erase(noteId: string, at: string | undefined): Promise<void> {
    const set: Partial<NoteDoc> = { title: '', body: '', deleted: true };
    if (at !== undefined) set.updatedAt = at;
    await this.notes.updateOne({ _id: noteId }, { $set: set });
    await this.lines.deleteMany({ noteId });
  }

  private async live(workspaceId: string, noteId: string): Promise<Note | undefined> {
    const doc = await this.notes.findOne({ _id: noteId, workspaceId, deleted: false });
    return doc === null ? undefined : (await this.withLines([doc]))[0];
  }

  private async withLines(docs: NoteDoc[]): Promise<Note[]> {
    if (docs.length === 0) return [];
    const rows = await this.lines
      .find({ noteId: { $in: docs.map((d) => d._id) } })
      .sort({ noteId: 1, n: 1 })
      .toArray();
    const byNote = new Map<string, string[]>();
    for (const r of rows) byNote.set(r.noteId, [...(byNote.get(r.noteId) ?? []), r.line]);
    return docs.map((d) => ({
      noteId: d._id,
      workspaceId: d.workspaceId,
      taskId: d.taskId,
      title: d.title,
      // As SqliteNotesStore's append: an empty body takes the line without a leading newline.
      body: (byNote.get(d._id) ?? []).reduce((body, line) => (body === '' ? line : `${body}\n${line}`), d.body),
      createdAt: d.createdAt,
      updatedAt: d.updatedAt,
    }));
  }

  private async recordEffect(
    request: { workspaceId: string; idempotencyKey: string },
    operation: NoteOperation,
    noteId: string,
    outcome: EffectRecord['outcome'],
    at: string,
  ): Promise<void> {
    await insertNext(
      async () => ((await this.effectRows.find({}).sort({ _id: -1 }).limit(1).next())?._id ?? 0) + 1,
      (seq) =>
        this.effectRows.insertOne({
          _id: seq,
          workspaceId: request.workspaceId,
          idempotencyKey: request.idempotencyKey,
          operation,
          noteId,
          outcome,
          at,
        }),
    );
  }
}

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
