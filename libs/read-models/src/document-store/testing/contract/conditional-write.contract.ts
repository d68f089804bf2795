import type { DocumentStore } from '../../document-store.port';
import { expectCode, type ContractContext } from '../document-store-harness';

/** Read-modify-write with compare-and-set, retried on conflict: what a projector does. */
async function increment(store: DocumentStore, collection: string, id: string): Promise<number> {
  for (let conflicts = 0; ; conflicts += 1) {
    const current = await store.get<{ _id: string; n: number }>(collection, id);
    try {
      await store.upsert(
        collection,
        { _id: id, n: (current?.n ?? 0) + 1 },
        { expectedVersion: current?._version ?? 0 },
      );
      return conflicts;
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'DOCUMENT_CONFLICT') throw error;
    }
  }
}

export function conditionalWriteContract(
  { harness, store, collection }: ContractContext,
  { racingWriters }: { racingWriters: boolean },
): void {
  describe('conditional writes (compare-and-set on _version)', () => {
    it('expectedVersion 0 inserts only when the document does not exist', async () => {
      const c = collection('cas');
      expect(await store().upsert(c, { _id: 'a', n: 1 }, { expectedVersion: 0 })).toEqual({ id: 'a', version: 1 });
      await expect(store().upsert(c, { _id: 'a', n: 2 }, { expectedVersion: 0 })).rejects.toMatchObject({
        code: 'DOCUMENT_CONFLICT',
        retriable: false,
        collection: c,
        id: 'a',
        expectedVersion: 0,
        actualVersion: 1,
      });
      expect(await store().get(c, 'a')).toEqual({ _id: 'a', n: 1, _version: 1 });
    });

    it('a write expecting the current version succeeds; a stale one is refused and changes nothing', async () => {
      const c = collection('cas');
      await store().upsert(c, { _id: 'a', n: 1 });
      await store().upsert(c, { _id: 'a', n: 2 });
      expect(await store().upsert(c, { _id: 'a', n: 3 }, { expectedVersion: 2 })).toEqual({ id: 'a', version: 3 });
      await expect(store().upsert(c, { _id: 'a', n: 99 }, { expectedVersion: 2 })).rejects.toMatchObject({
        code: 'DOCUMENT_CONFLICT',
        actualVersion: 3,
      });
      expect(await store().get(c, 'a')).toEqual({ _id: 'a', n: 3, _version: 3 });
    });

    it('expecting a version of a document that does not exist is a conflict, not an insert', async () => {
      const c = collection('cas');
      await expect(store().upsert(c, { _id: 'ghost', n: 1 }, { expectedVersion: 4 })).rejects.toMatchObject({
        code: 'DOCUMENT_CONFLICT',
        actualVersion: 0,
      });
      expect(await store().get(c, 'ghost')).toBeUndefined();
    });

    it('delete with expectedVersion removes only that version', async () => {
      const c = collection('cas');
      await store().upsert(c, { _id: 'a' });
      await store().upsert(c, { _id: 'a' });
      await expectCode(store().delete(c, 'a', { expectedVersion: 1 }), 'DOCUMENT_CONFLICT');
      await expectCode(store().delete(c, 'a', { expectedVersion: 0 }), 'DOCUMENT_CONFLICT');
      expect(await store().get(c, 'a')).toMatchObject({ _version: 2 });
      expect(await store().delete(c, 'a', { expectedVersion: 2 })).toBe(true);
      expect(await store().delete(c, 'a', { expectedVersion: 0 })).toBe(false);
      await expectCode(store().delete(c, 'a', { expectedVersion: 2 }), 'DOCUMENT_CONFLICT');
    });

    // Registered only where declared (which tests exist is fixed before any harness is built).
    if (racingWriters) {
      it('concurrent read-modify-write through two stores loses no update', async () => {
        const c = collection('cas');
        const stores = [store(), await harness().openAnother()];
        const workers = 6;
        const perWorker = 5;
        const conflicts = await Promise.all(
          Array.from({ length: workers }, async (_, w) => {
            let seen = 0;
            for (let i = 0; i < perWorker; i += 1) seen += await increment(stores[w % 2], c, 'counter');
            return seen;
          }),
        );
        const final = await store().get<{ _id: string; n: number }>(c, 'counter');
        expect(final?.n).toBe(workers * perWorker);
        expect(final?._version).toBe(workers * perWorker);
        // The interleaving of awaits makes workers collide; had none collided, nothing was tested.
        expect(conflicts.reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
      });
    }

    it('concurrent first inserts of one id: exactly one wins, the others conflict', async () => {
      const c = collection('cas');
      const stores = [store(), await harness().openAnother()];
      const results = await Promise.allSettled(
        Array.from({ length: 6 }, (_, i) => stores[i % 2].upsert(c, { _id: 'once', by: i }, { expectedVersion: 0 })),
      );
      const won = results.filter((r) => r.status === 'fulfilled');
      const lost = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      expect(won).toHaveLength(1);
      expect(lost.map((r) => (r.reason as { code?: unknown }).code)).toEqual(Array(5).fill('DOCUMENT_CONFLICT'));
      expect(await store().get(c, 'once')).toMatchObject({ _version: 1 });
    });

    it('rejects a malformed expectedVersion', async () => {
      const c = collection('cas');
      await expectCode(store().upsert(c, { _id: 'a' }, { expectedVersion: -1 }), 'INVALID_QUERY');
      await expectCode(store().upsert(c, { _id: 'a' }, { expectedVersion: 1.5 }), 'INVALID_QUERY');
    });

    describe('upsertMany', () => {
      const upsertMany = (...args: Parameters<DocumentStore['upsertMany']>) => store().upsertMany(...args);

      it('each write keeps its own compare-and-set: a conflicted one fails alone, the others apply, in order', async () => {
        const c = collection('cas_many');
        await store().upsert(c, { _id: 'b', n: 1 });
        const outcomes = await upsertMany(c, [
          { document: { _id: 'a', n: 1 }, expectedVersion: 0 },
          { document: { _id: 'b', n: 99 }, expectedVersion: 0 },
          { document: { _id: 'c', n: 1 } },
          { document: { _id: 'a', n: 2 }, expectedVersion: 1 },
        ]);
        expect(outcomes.map((o) => (o.ok ? o.result : (o.error as { code?: unknown }).code))).toEqual([
          { id: 'a', version: 1 },
          'DOCUMENT_CONFLICT',
          { id: 'c', version: 1 },
          { id: 'a', version: 2 },
        ]);
        expect(await store().get(c, 'a')).toEqual({ _id: 'a', n: 2, _version: 2 });
        expect(await store().get(c, 'b')).toEqual({ _id: 'b', n: 1, _version: 1 });
      });

      it('a malformed write refuses the whole call with a typed error and writes nothing', async () => {
        const c = collection('cas_many');
        await expectCode(
          upsertMany(c, [{ document: { _id: 'ok', n: 1 } }, { document: { _id: 'bad', n: 1 }, expectedVersion: -1 }]),
          'INVALID_QUERY',
        );
        expect(await store().get(c, 'ok')).toBeUndefined();
        expect(await upsertMany(c, [])).toEqual([]);
      });
    });
  });
}
