import { expectCode, type ContractContext } from '../document-store-harness';

export function countAndBulkContract({ store, collection }: ContractContext): void {
  describe('bulk writes and count', () => {
    it('applies upserts and deletes in order and counts what they did', async () => {
      const c = collection('bulk');
      await store().upsert(c, { _id: 'old', n: 0 });
      const result = await store().bulkWrite(c, [
        { type: 'upsert', document: { _id: 'a', n: 1 } },
        { type: 'upsert', document: { _id: 'b', n: 2 } },
        { type: 'upsert', document: { _id: 'a', n: 3 } },
        { type: 'delete', id: 'old' },
        { type: 'delete', id: 'never-there' },
        { type: 'upsert', document: { _id: 'c', n: 4 } },
        { type: 'delete', id: 'c' },
      ]);
      expect(result).toEqual({ upserted: 4, deleted: 2 });
      expect((await store().find(c)).items).toEqual([
        { _id: 'a', n: 3, _version: 2 },
        { _id: 'b', n: 2, _version: 1 },
      ]);
      expect(await store().count(c)).toBe(2);
      expect(await store().count(c, { n: { $gt: 2 } })).toBe(1);
    });

    it('repeating a bulk write gives the same documents (idempotent content)', async () => {
      const c = collection('bulk');
      const ops = Array.from({ length: 300 }, (_, i) => ({
        type: 'upsert' as const,
        document: { _id: `t${i}`, status: i % 3 === 0 ? 'open' : 'closed' },
      }));
      await store().bulkWrite(c, ops);
      await store().bulkWrite(c, ops);
      expect(await store().count(c)).toBe(300);
      expect(await store().count(c, { status: 'open' })).toBe(100);
      expect(await store().get(c, 't7')).toEqual({ _id: 't7', status: 'closed', _version: 2 });
    });

    it('an empty bulk write does nothing', async () => {
      const c = collection('bulk');
      expect(await store().bulkWrite(c, [])).toEqual({ upserted: 0, deleted: 0 });
      expect(await store().count(c)).toBe(0);
    });

    it('validates every operation before writing any', async () => {
      const c = collection('bulk');
      await expectCode(
        store().bulkWrite(c, [
          { type: 'upsert', document: { _id: 'ok' } },
          { type: 'upsert', document: { _id: 'bad', $set: 1 } },
        ]),
        'INVALID_DOCUMENT',
      );
      await expectCode(
        store().bulkWrite(c, [{ type: 'upsert', document: { _id: 'ok' } }, { type: 'replace', id: 'x' } as never]),
        'INVALID_QUERY',
      );
      expect(await store().get(c, 'ok')).toBeUndefined();
    });
  });
}
