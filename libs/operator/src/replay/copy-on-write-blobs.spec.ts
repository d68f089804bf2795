import { InMemoryBlobStore } from '@lomo/blobs/testing';
import { CopyOnWriteBlobStore } from './copy-on-write-blobs';

describe('copy-on-write blobs', () => {
  it('read through to the real store, keep their writes and deletes to themselves', async () => {
    const real = new InMemoryBlobStore();
    const kept = await real.put('a prompt', 'text/plain');
    const copy = new CopyOnWriteBlobStore(real);

    const written = await copy.put('a new segment', 'text/plain');
    await copy.delete(kept.hash);

    expect((await copy.get(written.hash))?.toString()).toBe('a new segment');
    expect(await copy.has(kept.hash)).toBe(false);
    expect(real.puts).toEqual(['text/plain']);
    expect(await real.has(written.hash)).toBe(false);
    expect((await real.get(kept.hash))?.toString()).toBe('a prompt');
  });
});
