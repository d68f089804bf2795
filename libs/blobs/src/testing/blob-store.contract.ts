import { createHash } from 'node:crypto';
import type { BlobStore } from '../blob-store.port';

export interface BlobStoreHarness {
  store: BlobStore;
  /** A second store on the same storage, as another replica would open it. */
  openAnother(): Promise<BlobStore>;
  dispose(): Promise<void>;
}

/** The BlobStore port's semantics, run against every adapter (filesystem, SQLite, GridFS). */
export function describeBlobStoreContract(name: string, open: () => Promise<BlobStoreHarness>): void {
  describe(`BlobStore contract: ${name}`, () => {
    let harness: BlobStoreHarness;
    let store: BlobStore;
    beforeEach(async () => {
      harness = await open();
      store = harness.store;
    });
    afterEach(() => harness.dispose());

    it('addresses content by its sha256 and returns it byte for byte', async () => {
      const ref = await store.put('{"messages":[]}', 'application/json');
      expect(ref).toEqual({
        hash: createHash('sha256').update('{"messages":[]}').digest('hex'),
        bytes: 15,
        contentType: 'application/json',
      });
      expect((await store.get(ref.hash))?.toString()).toBe('{"messages":[]}');
      expect(await store.has(ref.hash)).toBe(true);
    });

    it('stores the same content once: a repeat returns the same ref, and one delete forgets it', async () => {
      const a = await store.put(Buffer.from([1, 2, 3]), 'application/octet-stream');
      const b = await store.put(Buffer.from([1, 2, 3]), 'application/octet-stream');
      expect(b).toEqual(a);
      expect(await store.delete(a.hash)).toBe(true);
      expect(await store.has(a.hash)).toBe(false);
    });

    it('keeps binary content intact across chunk boundaries (a few hundred kilobytes)', async () => {
      const big = Buffer.alloc(700_000);
      for (let i = 0; i < big.length; i++) big[i] = (i * 31 + (i >> 8)) & 0xff;
      const ref = await store.put(big, 'image/png');
      expect(ref.bytes).toBe(big.length);
      expect((await store.get(ref.hash))?.equals(big)).toBe(true);
    });

    it('deletes (forgets) and reports whether something was there', async () => {
      const ref = await store.put('forget me', 'text/plain');
      expect(await store.delete(ref.hash)).toBe(true);
      expect(await store.get(ref.hash)).toBeUndefined();
      expect(await store.has(ref.hash)).toBe(false);
      expect(await store.delete(ref.hash)).toBe(false);
    });

    it('answers absent for an address never stored', async () => {
      const never = createHash('sha256').update('never stored').digest('hex');
      expect(await store.get(never)).toBeUndefined();
      expect(await store.has(never)).toBe(false);
      expect(await store.delete(never)).toBe(false);
    });

    it('refuses a malformed hash with a typed error instead of touching the storage', async () => {
      await expect(store.get('../../etc/passwd')).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
      await expect(store.has('ABC')).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
      await expect(store.delete('')).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    });

    it('shares its storage: what one store puts, another reads and can forget', async () => {
      const other = await harness.openAnother();
      const ref = await store.put('seen by every replica', 'text/plain');
      expect((await other.get(ref.hash))?.toString()).toBe('seen by every replica');
      expect(await other.delete(ref.hash)).toBe(true);
      expect(await store.has(ref.hash)).toBe(false);
    });

    it('racing puts of the same content leave one readable blob', async () => {
      const other = await harness.openAnother();
      const refs = await Promise.all([
        store.put('raced', 'text/plain'),
        other.put('raced', 'text/plain'),
        store.put('raced', 'text/plain'),
      ]);
      expect(new Set(refs.map((r) => r.hash)).size).toBe(1);
      expect((await other.get(refs[0]!.hash))?.toString()).toBe('raced');
      expect(await store.delete(refs[0]!.hash)).toBe(true);
      expect(await other.has(refs[0]!.hash)).toBe(false);
    });
  });
}
