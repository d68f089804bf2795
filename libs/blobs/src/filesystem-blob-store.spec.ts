import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { FilesystemBlobStore } from './filesystem-blob-store';

describe('FilesystemBlobStore', () => {
  let dir: string;
  let store: FilesystemBlobStore;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'lomo-blobs-'));
    store = new FilesystemBlobStore(dir);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('addresses content by its sha256 and returns it byte for byte', async () => {
    const ref = await store.put('{"messages":[]}', 'application/json');
    expect(ref).toEqual({
      hash: createHash('sha256').update('{"messages":[]}').digest('hex'),
      bytes: 15,
      contentType: 'application/json',
    });
    expect((await store.get(ref.hash))?.toString()).toBe('{"messages":[]}');
  });

  it('stores the same content once', async () => {
    const a = await store.put(Buffer.from([1, 2, 3]), 'application/octet-stream');
    const b = await store.put(Buffer.from([1, 2, 3]), 'application/octet-stream');
    expect(a.hash).toBe(b.hash);
    const leaves = readdirSync(path.join(dir, a.hash.slice(0, 2), a.hash.slice(2, 4)));
    expect(leaves).toEqual([a.hash]);
  });

  it('deletes (forgets) and reports whether something was there', async () => {
    const ref = await store.put('forget me', 'text/plain');
    expect(await store.delete(ref.hash)).toBe(true);
    expect(await store.get(ref.hash)).toBeUndefined();
    expect(await store.has(ref.hash)).toBe(false);
    expect(await store.delete(ref.hash)).toBe(false);
  });

  it('refuses a malformed hash with a typed error instead of touching the filesystem', async () => {
    await expect(store.get('../../etc/passwd')).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
  });
});
