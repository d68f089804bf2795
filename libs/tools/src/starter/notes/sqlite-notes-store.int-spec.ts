import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { SqliteNotesStore, noteIdFor } from './sqlite-notes-store';
import { NoteNotFoundError } from './notes-store.port';

const at = new Date('2026-11-30T10:00:00.000Z');
const later = (ms: number) => new Date(at.getTime() + ms);
const task = '11111111-1111-4111-8111-111111111111';

describe('SqliteNotesStore', () => {
  let dir: string;
  let file: string;
  let store: SqliteNotesStore;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'lomo-notes-'));
    file = join(dir, 'tools.sqlite');
    store = SqliteNotesStore.open({ filename: file });
  });

  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const create = (idempotencyKey: string, title = 'Ideas', workspaceId = 'ws1', when = at) =>
    store.create({ workspaceId, taskId: task, title, body: 'first line', idempotencyKey, at: when });

  it('uses WAL so other processes can read while one writes', () => {
    const db = new Database(file, { readonly: true });
    try {
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    } finally {
      db.close();
    }
  });

  it('creates one note per idempotency key, however often the call is repeated', async () => {
    const first = await create('k1');
    const again = await create('k1', 'A different title the retry wrote');
    expect(first.created).toBe(true);
    expect(again).toEqual({ note: first.note, created: false });
    expect(first.note.noteId).toBe(noteIdFor('ws1', 'k1'));
    expect(await store.list('ws1', { limit: 10 })).toHaveLength(1);
    const effects = await store.effects({ idempotencyKey: 'k1' });
    expect(effects.map((e) => e.outcome)).toEqual(['applied', 'deduplicated']);
  });

  it('keeps the same key apart in different workspaces', async () => {
    const a = await create('k1', 'A', 'ws1');
    const b = await create('k1', 'B', 'ws2');
    expect(b.created).toBe(true);
    expect(a.note.noteId).not.toBe(b.note.noteId);
    expect((await store.list('ws1', { limit: 10 })).map((n) => n.title)).toEqual(['A']);
    expect(await store.get('ws2', a.note.noteId)).toBeUndefined();
  });

  it('lists newest first, bounded, and filters by title text (LIKE wildcards taken literally)', async () => {
    await create('k1', 'Moodboard', 'ws1', later(0));
    await create('k2', '100% cotton', 'ws1', later(1));
    await create('k3', 'Shot list', 'ws1', later(2));
    expect((await store.list('ws1', { limit: 2 })).map((n) => n.title)).toEqual(['Shot list', '100% cotton']);
    expect((await store.list('ws1', { limit: 10, titleContains: '%' })).map((n) => n.title)).toEqual(['100% cotton']);
    expect((await store.list('ws1', { limit: 10, titleContains: 'list' })).map((n) => n.title)).toEqual(['Shot list']);
  });

  it('deletes for good, records the effect, and shows a repeated delete with the same key', async () => {
    const { note } = await create('k1');
    await store.delete({ workspaceId: 'ws1', noteId: note.noteId, idempotencyKey: 'del-1', at: later(5) });
    expect(await store.get('ws1', note.noteId)).toBeUndefined();
    expect(await store.list('ws1', { limit: 10 })).toEqual([]);

    await expect(
      store.delete({ workspaceId: 'ws1', noteId: note.noteId, idempotencyKey: 'del-1', at: later(6) }),
    ).rejects.toBeInstanceOf(NoteNotFoundError);
    const effects = await store.effects({ idempotencyKey: 'del-1' });
    expect(effects.map((e) => [e.operation, e.outcome])).toEqual([
      ['note.deleted', 'applied'],
      ['note.deleted', 'not_found'],
    ]);
  });

  it('erases the content of a deleted note, and a retried create does not bring it back', async () => {
    const { note } = await create('k1');
    await store.delete({ workspaceId: 'ws1', noteId: note.noteId, idempotencyKey: 'del-1', at });
    await expect(create('k1')).rejects.toBeInstanceOf(NoteNotFoundError);
    const raw = new Database(file, { readonly: true });
    try {
      expect(raw.prepare('SELECT title, body FROM notes WHERE note_id = ?').get(note.noteId)).toEqual({
        title: '',
        body: '',
      });
    } finally {
      raw.close();
    }
    expect(await store.list('ws1', { limit: 10 })).toEqual([]);
  });

  it('appends a line on every call, even with a key already seen (not idempotent)', async () => {
    const { note } = await create('k1');
    const request = { workspaceId: 'ws1', noteId: note.noteId, line: 'again', idempotencyKey: 'app-1', at };
    await store.appendLine(request);
    const after = await store.appendLine(request);
    expect(after.body).toBe('first line\nagain\nagain');
    expect((await store.effects({ idempotencyKey: 'app-1' })).filter((e) => e.outcome === 'applied')).toHaveLength(2);
  });

  it('refuses to append to a note that does not exist, recording the attempt', async () => {
    const missing = noteIdFor('ws1', 'never');
    await expect(
      store.appendLine({ workspaceId: 'ws1', noteId: missing, line: 'x', idempotencyKey: 'app-2', at }),
    ).rejects.toMatchObject({ code: 'NOTE_NOT_FOUND', retriable: false });
    expect((await store.effects({ idempotencyKey: 'app-2' })).map((e) => e.outcome)).toEqual(['not_found']);
  });

  it('shares one file between connections: a second store sees the first one note per key', async () => {
    const other = SqliteNotesStore.open({ filename: file });
    try {
      await create('k1');
      const fromOther = await other.create({
        workspaceId: 'ws1',
        taskId: task,
        title: 'Ideas',
        body: '',
        idempotencyKey: 'k1',
        at,
      });
      expect(fromOther.created).toBe(false);
      expect(await other.effects({ workspaceId: 'ws1' })).toHaveLength(2);
    } finally {
      await other.close();
    }
  });
});
