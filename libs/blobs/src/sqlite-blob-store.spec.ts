import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import { SqliteBlobStore } from './sqlite-blob-store';
import { createSqliteBlobStoreHarness, describeBlobStoreContract } from './testing';

describeBlobStoreContract('sqlite (FULL)', () => createSqliteBlobStoreHarness());
describeBlobStoreContract('sqlite (NORMAL, inside an event-store file)', () =>
  createSqliteBlobStoreHarness({ synchronous: 'NORMAL' }),
);

describe('SqliteBlobStore', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'lomo-sqlite-blob-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps one row per content: a repeated put writes nothing', async () => {
    const filename = path.join(dir, 'b.sqlite');
    const store = new SqliteBlobStore({ filename });
    await store.put('same', 'text/plain');
    await store.put('same', 'text/plain');
    store.close();
    const db = new Database(filename, { readonly: true });
    expect(db.prepare('SELECT count(*) AS n FROM blobs').get()).toEqual({ n: 1 });
    db.close();
  });

  it('refuses to hand out bytes that do not hash to their address', async () => {
    const filename = path.join(dir, 'b.sqlite');
    const store = new SqliteBlobStore({ filename });
    const ref = await store.put('original', 'text/plain');
    const db = new Database(filename);
    db.prepare('UPDATE blobs SET content = ? WHERE hash = ?').run(Buffer.from('tampered'), ref.hash);
    db.close();
    await expect(store.get(ref.hash)).rejects.toMatchObject({ code: 'BLOB_CORRUPTED' });
    store.close();
  });

  it('lives beside the event store in one file without touching its tables or schema version', async () => {
    const filename = path.join(dir, 'events.sqlite');
    const db = new Database(filename);
    db.pragma('user_version = 1');
    db.exec('CREATE TABLE events (position INTEGER PRIMARY KEY)');
    db.close();
    const store = new SqliteBlobStore({ filename, synchronous: 'NORMAL' });
    await store.put('text', 'text/markdown');
    store.close();
    const check = new Database(filename, { readonly: true });
    expect(check.pragma('user_version', { simple: true })).toBe(1);
    expect(check.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck().all()).toEqual([
      'blobs',
      'events',
    ]);
    check.close();
  });
});
