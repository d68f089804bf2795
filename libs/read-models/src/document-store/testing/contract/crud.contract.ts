import type { ContractContext } from '../document-store-harness';

export function crudContract({ harness, store, collection }: ContractContext): void {
  describe('get, upsert, delete', () => {
    it('returns undefined for an absent document, also in an absent collection', async () => {
      const c = collection('crud');
      expect(await store().get(c, 'nope')).toBeUndefined();
      await store().upsert(c, { _id: 'a' });
      expect(await store().get(c, 'nope')).toBeUndefined();
    });

    it('round-trips nested JSON and sets _version to 1, then +1 per write', async () => {
      const c = collection('crud');
      const doc = {
        _id: 'task-1',
        goal: 'draw a cat',
        count: 3,
        ratio: 0.25,
        done: false,
        note: null,
        tags: ['a', 'b'],
        meta: { createdAt: '2025-01-01T00:00:00.000Z', nested: { deep: [1, { x: 'y' }] } },
      };
      expect(await store().upsert(c, doc)).toEqual({ id: 'task-1', version: 1 });
      expect(await store().get(c, 'task-1')).toEqual({ ...doc, _version: 1 });
      expect(await store().upsert(c, { ...doc, count: 4 })).toEqual({ id: 'task-1', version: 2 });
      expect(await store().get(c, 'task-1')).toEqual({ ...doc, count: 4, _version: 2 });
    });

    it('replaces the whole document: fields left out are gone, undefined fields are dropped', async () => {
      const c = collection('crud');
      await store().upsert(c, { _id: 'a', keep: 1, drop: 2 });
      await store().upsert(c, { _id: 'a', keep: 1, gone: undefined });
      expect(await store().get(c, 'a')).toEqual({ _id: 'a', keep: 1, _version: 2 });
    });

    it('ignores a _version passed in: the store owns it', async () => {
      const c = collection('crud');
      await store().upsert(c, { _id: 'a', n: 1 });
      const read = await store().get(c, 'a');
      expect(read).toBeDefined();
      expect(await store().upsert(c, { ...read!, _version: 99, n: 2 })).toEqual({ id: 'a', version: 2 });
      expect(await store().get(c, 'a')).toEqual({ _id: 'a', n: 2, _version: 2 });
    });

    it('getMany returns found documents in the order asked, each once', async () => {
      const c = collection('crud');
      await store().bulkWrite(
        c,
        ['a', 'b', 'c'].map((id) => ({ type: 'upsert' as const, document: { _id: id, v: id } })),
      );
      const found = await store().getMany(c, ['c', 'x', 'a', 'c']);
      expect(found.map((d) => d._id)).toEqual(['c', 'a']);
      expect(found[1]).toEqual({ _id: 'a', v: 'a', _version: 1 });
      expect(await store().getMany(c, [])).toEqual([]);
      expect(await store().getMany(collection('absent'), ['a'])).toEqual([]);
    });

    it('delete says whether something was deleted', async () => {
      const c = collection('crud');
      await store().upsert(c, { _id: 'a' });
      expect(await store().delete(c, 'a')).toBe(true);
      expect(await store().get(c, 'a')).toBeUndefined();
      expect(await store().delete(c, 'a')).toBe(false);
      expect(await store().delete(collection('absent'), 'a')).toBe(false);
    });

    it('a document written through one store is read through another on the same storage', async () => {
      const c = collection('crud');
      const other = await harness().openAnother();
      await store().upsert(c, { _id: 'shared', by: 'one' });
      expect(await other.get(c, 'shared')).toEqual({ _id: 'shared', by: 'one', _version: 1 });
    });
  });
}
