import type { DocumentInput, Filter } from '../../document-store.port';
import type { ContractContext } from '../document-store-harness';

// Mixed types on purpose (n: 3 vs '3', done: true vs 1): both adapters must keep them apart.
const DOCS: DocumentInput[] = [
  { _id: 'a', status: 'open', n: 1, done: false, meta: { owner: 'u1', level: 2 }, title: 'apple' },
  { _id: 'b', status: 'closed', n: 2, done: true, meta: { owner: 'u2', level: 5 }, title: 'banana' },
  { _id: 'c', status: 'open', n: 3.5, done: true, meta: { owner: 'u1' }, title: 'cherry', note: null },
  { _id: 'd', status: 'archived', n: '3', done: 1, title: 'date' },
  { _id: 'e', n: null, title: 'Elder' },
];

const CASES: Array<[label: string, filter: Filter, ids: string[]]> = [
  ['no filter', {}, ['a', 'b', 'c', 'd', 'e']],
  ['string equality', { status: 'open' }, ['a', 'c']],
  ['$eq', { status: { $eq: 'closed' } }, ['b']],
  ['number equality ignores the string "3"', { n: 3.5 }, ['c']],
  ['string equality ignores numbers', { n: '3' }, ['d']],
  ['boolean equality ignores the number 1', { done: true }, ['b', 'c']],
  ['number equality ignores true', { done: 1 }, ['d']],
  ['false', { done: false }, ['a']],
  ['null matches missing', { status: null }, ['e']],
  ['null matches null and missing', { note: null }, ['a', 'b', 'c', 'd', 'e']],
  ['nested dotted path', { 'meta.owner': 'u1' }, ['a', 'c']],
  ['nested range', { 'meta.level': { $gte: 2, $lt: 5 } }, ['a']],
  ['nested path through a missing parent', { 'meta.owner': null }, ['d', 'e']],
  ['$in strings', { status: { $in: ['open', 'archived'] } }, ['a', 'c', 'd']],
  ['$in with null', { status: { $in: [null, 'closed'] } }, ['b', 'e']],
  ['$in mixed number and string', { n: { $in: [1, '3'] } }, ['a', 'd']],
  ['$in booleans', { done: { $in: [true] } }, ['b', 'c']],
  ['empty $in matches nothing', { status: { $in: [] } }, []],
  ['number range skips strings and null', { n: { $gt: 1 } }, ['b', 'c']],
  ['number range, both ends', { n: { $gte: 1, $lte: 2 } }, ['a', 'b']],
  ['string range, binary order', { title: { $gte: 'b', $lt: 'd' } }, ['b', 'c']],
  ['upper case sorts before lower case', { title: { $lt: 'a' } }, ['e']],
  ['string range skips numbers', { n: { $gte: '0' } }, ['d']],
  ['conditions combine with AND', { status: 'open', n: { $gt: 1 } }, ['c']],
  ['_id $in', { _id: { $in: ['a', 'e', 'zz'] } }, ['a', 'e']],
  ['_id range', { _id: { $gt: 'c' } }, ['d', 'e']],
];

export function filterContract({ store, collection }: ContractContext): void {
  describe('filters', () => {
    const c = collection('filters');
    beforeAll(async () => {
      await store().bulkWrite(
        c,
        DOCS.map((document) => ({ type: 'upsert' as const, document })),
      );
    });

    it.each(CASES)('%s (find and count agree)', async (_label, filter, ids) => {
      const page = await store().find(c, { filter, limit: 50 });
      expect(page.items.map((d) => d._id)).toEqual(ids);
      expect(await store().count(c, filter)).toBe(ids.length);
    });

    it('the same filters hold when an index serves them', async () => {
      const indexed = collection('filters_indexed');
      await store().ensureIndexes(indexed, [
        { fields: { status: 1 } },
        { fields: { n: 1 } },
        { fields: { done: 1 } },
        { fields: { 'meta.owner': 1, 'meta.level': -1 } },
      ]);
      await store().bulkWrite(
        indexed,
        DOCS.map((document) => ({ type: 'upsert' as const, document })),
      );
      for (const [label, filter, ids] of CASES) {
        const page = await store().find(indexed, { filter, limit: 50 });
        expect({ label, ids: page.items.map((d) => d._id) }).toEqual({ label, ids });
      }
    });

    it('count of an absent collection is 0', async () => {
      expect(await store().count(collection('absent'), { status: 'open' })).toBe(0);
      expect(await store().count(collection('absent'))).toBe(0);
    });
  });
}
