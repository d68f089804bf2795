import type { IndexSpec } from '../../document-store.port';
import { type ContractContext, expectCode } from '../document-store-harness';

export function indexesContract({ store, collection }: ContractContext): void {
  describe('indexes and collections', () => {
    it('ensureIndexes is idempotent and creates the collection', async () => {
      const c = collection('idx');
      const indexes: IndexSpec[] = [{ fields: { status: 1, updatedAt: -1 } }, { fields: { email: 1 }, unique: true }];
      await store().ensureIndexes(c, indexes);
      await store().ensureIndexes(c, indexes);
      await store().ensureIndexes(c, [...indexes, { fields: { 'meta.owner': 1 } }]);
      expect(await store().listCollections()).toContain(c);
      await store().upsert(c, { _id: 'a', status: 'open', email: 'a@x', updatedAt: '1' });
      expect(await store().count(c, { status: 'open' })).toBe(1);
    });

    it('a unique index refuses a second document with the value, with a typed error', async () => {
      const c = collection('idx');
      await store().ensureIndexes(c, [{ fields: { email: 1 }, unique: true }]);
      await store().upsert(c, { _id: 'a', email: 'same@x' });
      await expect(store().upsert(c, { _id: 'b', email: 'same@x' })).rejects.toMatchObject({
        code: 'DOCUMENT_UNIQUE_VIOLATION',
        retriable: false,
        collection: c,
      });
      await expectCode(
        store().upsert(c, { _id: 'b', email: 'same@x' }, { expectedVersion: 0 }),
        'DOCUMENT_UNIQUE_VIOLATION',
      );
      await expectCode(
        store().bulkWrite(c, [{ type: 'upsert', document: { _id: 'c', email: 'same@x' } }]),
        'DOCUMENT_UNIQUE_VIOLATION',
      );
      expect(await store().get(c, 'b')).toBeUndefined();
      expect(await store().get(c, 'c')).toBeUndefined();
      // The holder itself can be rewritten, and another value is fine.
      await store().upsert(c, { _id: 'a', email: 'same@x', n: 2 });
      await store().upsert(c, { _id: 'b', email: 'other@x' });
      await expectCode(
        store().upsert(c, { _id: 'b', email: 'same@x' }, { expectedVersion: 1 }),
        'DOCUMENT_UNIQUE_VIOLATION',
      );
      expect(await store().get(c, 'b')).toMatchObject({ email: 'other@x', _version: 1 });
    });

    it('compound unique indexes compare the whole tuple', async () => {
      const c = collection('idx');
      await store().ensureIndexes(c, [{ fields: { workspaceId: 1, key: 1 }, unique: true }]);
      await store().upsert(c, { _id: '1', workspaceId: 'w1', key: 'k' });
      await store().upsert(c, { _id: '2', workspaceId: 'w2', key: 'k' });
      await expectCode(store().upsert(c, { _id: '3', workspaceId: 'w1', key: 'k' }), 'DOCUMENT_UNIQUE_VIOLATION');
    });

    it('declaring a unique index over existing duplicates fails with a typed error', async () => {
      const c = collection('idx');
      await store().upsert(c, { _id: '1', key: 'k' });
      await store().upsert(c, { _id: '2', key: 'k' });
      await expectCode(store().ensureIndexes(c, [{ fields: { key: 1 }, unique: true }]), 'DOCUMENT_UNIQUE_VIOLATION');
    });

    it('lists and drops collections; reads do not create them', async () => {
      const c = collection('coll');
      const never = collection('coll');
      await store().get(never, 'x');
      await store().find(never, { filter: { a: 1 } });
      await store().upsert(c, { _id: 'x' });
      const listed = await store().listCollections();
      expect(listed).toContain(c);
      expect(listed).not.toContain(never);
      expect(await store().dropCollection(c)).toBe(true);
      expect(await store().dropCollection(c)).toBe(false);
      expect(await store().listCollections()).not.toContain(c);
      expect(await store().get(c, 'x')).toBeUndefined();
      // Usable again after a drop, indexes included.
      await store().ensureIndexes(c, [{ fields: { n: 1 }, unique: true }]);
      await store().upsert(c, { _id: 'y', n: 1 });
      await expectCode(store().upsert(c, { _id: 'z', n: 1 }), 'DOCUMENT_UNIQUE_VIOLATION');
    });
  });
}
