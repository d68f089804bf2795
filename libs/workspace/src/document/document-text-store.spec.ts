import type { BlobStore } from '@lomo/blobs';
import { DocumentTextStore } from './document-text-store';

/** No blob is ever there: every text the store hands out comes from its cache. */
const noBlobs: BlobStore = {
  put: () => Promise.reject(new Error('not used')),
  get: () => Promise.resolve(undefined),
  has: () => Promise.resolve(false),
  delete: () => Promise.resolve(false),
};
const snapshotOnly = (hash: string) => ({
  version: 1,
  hash,
  snapshot: { hash, bytes: 2, contentType: 'text/markdown' },
  patches: [],
});

describe('DocumentTextStore: the writer remembers the latest text of a document', () => {
  it('drops the version a new text replaces, and keeps the texts of other documents', async () => {
    const texts = new DocumentTextStore(noBlobs);
    texts.remember('other', 'o1');
    texts.remember('v1', 'd1');
    texts.remember('v2', 'd2', 'v1');
    expect(await texts.read(snapshotOnly('v2'))).toBe('d2');
    expect(await texts.read(snapshotOnly('v1'))).toBeUndefined();
    expect(await texts.read(snapshotOnly('other'))).toBe('o1');
    expect(texts.cacheStats).toEqual({ texts: 2, chars: 4 });
  });

  it('keeps a text that "replaces" itself (a rewrite to the same content)', async () => {
    const texts = new DocumentTextStore(noBlobs);
    texts.remember('v1', 'd1');
    texts.remember('v1', 'd1', 'v1');
    expect(await texts.read(snapshotOnly('v1'))).toBe('d1');
  });
});
