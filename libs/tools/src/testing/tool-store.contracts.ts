import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { MongoExportJobStore } from '../mongodb/mongo-export-job-store';
import { MongoNotesStore } from '../mongodb/mongo-notes-store';
import type { ExportJob, ExportJobStore } from '../starter/export/export-job.port';
import { SqliteExportJobStore } from '../starter/export/sqlite-export-job-store';
import { NoteNotFoundError, type NotesStore } from '../starter/notes/notes-store.port';
import { noteIdFor, SqliteNotesStore } from '../starter/notes/sqlite-notes-store';

export interface StoreHarness<S> {
  store: S;
  /** A second store on the same storage, as another executor would open it. */
  openAnother(): Promise<S>;
  dispose(): Promise<void>;
}

const at = new Date('2026-11-30T10:00:00.000Z');
const later = (ms: number) => new Date(at.getTime() + ms);
const task = '11111111-1111-4111-8111-111111111111';

/** The NotesStore port's semantics (idempotency by key, effect rows), for every adapter. */
export function describeNotesStoreContract(name: string, open: () => Promise<StoreHarness<NotesStore>>): void {
  describe(`NotesStore contract: ${name}`, () => {
    let harness: StoreHarness<NotesStore>;
    let store: NotesStore;
    beforeEach(async () => {
      harness = await open();
      store = harness.store;
    });
    afterEach(() => harness.dispose());

    const create = (idempotencyKey: string, title = 'Ideas', workspaceId = 'ws1', when = at) =>
      store.create({ workspaceId, taskId: task, title, body: 'first line', idempotencyKey, at: when });

    it('creates one note per idempotency key, however often the call is repeated', async () => {
      const first = await create('k1');
      const again = await create('k1', 'A different title the retry wrote');
      expect(first.created).toBe(true);
      expect(again).toEqual({ note: first.note, created: false });
      expect(first.note.noteId).toBe(noteIdFor('ws1', 'k1'));
      expect(await store.list('ws1', { limit: 10 })).toHaveLength(1);
      const effects = await store.effects({ idempotencyKey: 'k1' });
      expect(effects.map((e) => e.outcome)).toEqual(['applied', 'deduplicated']);
      expect(effects[0]!.seq).toBeLessThan(effects[1]!.seq);
    });

    it('keeps the same key apart in different workspaces', async () => {
      const a = await create('k1', 'A', 'ws1');
      const b = await create('k1', 'B', 'ws2');
      expect(b.created).toBe(true);
      expect(a.note.noteId).not.toBe(b.note.noteId);
      expect((await store.list('ws1', { limit: 10 })).map((n) => n.title)).toEqual(['A']);
      expect(await store.get('ws2', a.note.noteId)).toBeUndefined();
      expect((await store.effects({ workspaceId: 'ws2' })).map((e) => e.noteId)).toEqual([b.note.noteId]);
    });

    it('lists newest first, bounded, and filters by title text (wildcards taken literally)', async () => {
      await create('k1', 'Moodboard', 'ws1', later(0));
      await create('k2', '100% cotton', 'ws1', later(1));
      await create('k3', 'Shot list', 'ws1', later(2));
      await create('k4', 'a.b', 'ws1', later(3));
      expect((await store.list('ws1', { limit: 2 })).map((n) => n.title)).toEqual(['a.b', 'Shot list']);
      expect((await store.list('ws1', { limit: 10, titleContains: '%' })).map((n) => n.title)).toEqual(['100% cotton']);
      expect((await store.list('ws1', { limit: 10, titleContains: '.' })).map((n) => n.title)).toEqual(['a.b']);
      expect((await store.list('ws1', { limit: 10, titleContains: 'list' })).map((n) => n.title)).toEqual([
        'Shot list',
      ]);
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

    it('a retried create does not bring a deleted note back', async () => {
      const { note } = await create('k1');
      await store.delete({ workspaceId: 'ws1', noteId: note.noteId, idempotencyKey: 'del-1', at });
      await expect(create('k1')).rejects.toBeInstanceOf(NoteNotFoundError);
      expect(await store.list('ws1', { limit: 10 })).toEqual([]);
    });

    it('does not delete another workspace’s note', async () => {
      const { note } = await create('k1', 'Mine', 'ws1');
      await expect(
        store.delete({ workspaceId: 'ws2', noteId: note.noteId, idempotencyKey: 'del-x', at }),
      ).rejects.toMatchObject({ code: 'NOTE_NOT_FOUND' });
      expect((await store.get('ws1', note.noteId))?.title).toBe('Mine');
    });

    it('appends a line on every call, even with a key already seen (not idempotent)', async () => {
      const { note } = await create('k1');
      const request = { workspaceId: 'ws1', noteId: note.noteId, line: 'again', idempotencyKey: 'app-1', at };
      await store.appendLine(request);
      const after = await store.appendLine(request);
      expect(after.body).toBe('first line\nagain\nagain');
      expect((await store.get('ws1', note.noteId))?.body).toBe('first line\nagain\nagain');
      expect((await store.effects({ idempotencyKey: 'app-1' })).filter((e) => e.outcome === 'applied')).toHaveLength(2);
    });

    it('refuses to append to a note that does not exist, recording the attempt', async () => {
      const missing = noteIdFor('ws1', 'never');
      await expect(
        store.appendLine({ workspaceId: 'ws1', noteId: missing, line: 'x', idempotencyKey: 'app-2', at }),
      ).rejects.toMatchObject({ code: 'NOTE_NOT_FOUND', retriable: false });
      expect((await store.effects({ idempotencyKey: 'app-2' })).map((e) => e.outcome)).toEqual(['not_found']);
    });

    it('shares its storage: a second store sees the first one note per key', async () => {
      const other = await harness.openAnother();
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

    it('racing stores: one create per key, one applied delete, every append kept', async () => {
      const other = await harness.openAnother();
      try {
        const creates = await Promise.all([
          create('race'),
          create('race'),
          other.create({
            workspaceId: 'ws1',
            taskId: task,
            title: 'Ideas',
            body: 'first line',
            idempotencyKey: 'race',
            at,
          }),
        ]);
        expect(creates.filter((c) => c.created)).toHaveLength(1);
        const noteId = creates[0]!.note.noteId;
        const append = (s: NotesStore, line: string) =>
          s.appendLine({ workspaceId: 'ws1', noteId, line, idempotencyKey: `app-${line}`, at });
        await Promise.all([append(store, 'a'), append(other, 'b'), append(store, 'c'), append(other, 'd')]);
        const body = (await store.get('ws1', noteId))!.body.split('\n');
        expect(body[0]).toBe('first line');
        expect(body.slice(1).sort()).toEqual(['a', 'b', 'c', 'd']);
        const del = (s: NotesStore) =>
          s.delete({ workspaceId: 'ws1', noteId, idempotencyKey: 'del-race', at }).then(
            () => 'deleted',
            (e: unknown) => (e instanceof NoteNotFoundError ? 'not_found' : Promise.reject(e)),
          );
        expect((await Promise.all([del(store), del(other), del(store)])).sort()).toEqual([
          'deleted',
          'not_found',
          'not_found',
        ]);
        const seqs = (await store.effects()).map((e) => e.seq);
        expect(new Set(seqs).size).toBe(seqs.length);
      } finally {
        await other.close();
      }
    });
  });
}

const job = (key: string, dueAtMs: number, workspaceId = 'ws1'): ExportJob => ({
  jobId: `job-${workspaceId}-${key}`,
  workspaceId,
  taskId: task,
  turnId: '22222222-2222-4222-8222-222222222222',
  callId: `call-${key}`,
  idempotencyKey: key,
  correlationId: 'corr',
  title: 'Brief',
  format: 'markdown',
  content: '# Brief',
  status: 'pending',
  createdAt: at.toISOString(),
  dueAtMs,
  attempts: 0,
});

/** The ExportJobStore port's semantics, for every adapter. */
export function describeExportJobStoreContract(name: string, open: () => Promise<StoreHarness<ExportJobStore>>): void {
  describe(`ExportJobStore contract: ${name}`, () => {
    let harness: StoreHarness<ExportJobStore>;
    let store: ExportJobStore;
    beforeEach(async () => {
      harness = await open();
      store = harness.store;
    });
    afterEach(() => harness.dispose());

    it('inserts a job once: a second submit returns the first, unchanged', async () => {
      const first = await store.insertIfAbsent(job('k1', 100));
      const again = await store.insertIfAbsent({ ...job('k1', 999), title: 'Another title' });
      expect(first).toEqual({ job: job('k1', 100), inserted: true });
      expect(again).toEqual({ job: job('k1', 100), inserted: false });
      expect(await store.get('job-ws1-k1')).toEqual(job('k1', 100));
      expect(await store.get('job-ws1-none')).toBeUndefined();
    });

    it('lists pending jobs oldest due first, and no longer once finished (the first outcome stands)', async () => {
      await store.insertIfAbsent(job('late', 300));
      await store.insertIfAbsent(job('early', 100));
      await store.insertIfAbsent(job('mid', 200));
      expect((await store.pending()).map((j) => j.idempotencyKey)).toEqual(['early', 'mid', 'late']);
      await store.markFinished('job-ws1-mid', 'completed', at);
      await store.markFinished('job-ws1-mid', 'failed', later(1));
      expect((await store.pending()).map((j) => j.idempotencyKey)).toEqual(['early', 'late']);
      expect((await store.get('job-ws1-mid'))?.status).toBe('completed');
    });

    it('counts failed attempts, across stores, and answers 0 for an unknown job', async () => {
      const other = await harness.openAnother();
      try {
        await store.insertIfAbsent(job('k1', 100));
        expect(await store.recordFailure('job-ws1-k1')).toBe(1);
        const counts = await Promise.all([store.recordFailure('job-ws1-k1'), other.recordFailure('job-ws1-k1')]);
        expect(counts.sort()).toEqual([2, 3]);
        expect((await other.get('job-ws1-k1'))?.attempts).toBe(3);
        expect(await store.recordFailure('job-ws1-none')).toBe(0);
      } finally {
        await other.close();
      }
    });
  });
}

export async function createSqliteToolStoresHarness<S extends NotesStore | ExportJobStore>(
  openStore: (filename: string) => S,
): Promise<StoreHarness<S>> {
  const dir = mkdtempSync(join(tmpdir(), 'lomo-tools-'));
  const file = join(dir, 'tools.sqlite');
  const opened: S[] = [openStore(file)];
  return {
    store: opened[0]!,
    openAnother: async () => {
      const s = openStore(file);
      opened.push(s);
      return s;
    },
    dispose: async () => {
      await Promise.all(opened.map((s) => s.close()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export const sqliteNotesHarness = () => createSqliteToolStoresHarness((f) => SqliteNotesStore.open({ filename: f }));
export const sqliteExportJobsHarness = () =>
  createSqliteToolStoresHarness((f) => SqliteExportJobStore.open({ filename: f }));

/** A fresh database per harness on MONGODB_URL (FerretDB by default), dropped on dispose. */
export async function createMongoToolStoresHarness<S>(make: (db: import('mongodb').Db) => S): Promise<StoreHarness<S>> {
  const url = process.env.MONGODB_URL ?? 'mongodb://127.0.0.1:27017/';
  const databaseName = `lomo_tools_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const clients: MongoClient[] = [];
  const open = async () => {
    const client = new MongoClient(url, { serverSelectionTimeoutMS: 5_000 });
    await client.connect();
    clients.push(client);
    return make(client.db(databaseName));
  };
  const store = await open();
  return {
    store,
    openAnother: open,
    dispose: async () => {
      await clients[0]!.db(databaseName).dropDatabase();
      await Promise.all(clients.map((c) => c.close()));
    },
  };
}

export const mongoNotesHarness = () => createMongoToolStoresHarness((db) => new MongoNotesStore({ db }));
export const mongoExportJobsHarness = () => createMongoToolStoresHarness((db) => new MongoExportJobStore({ db }));
