import type { DocumentInput, Filter, FindQuery } from '../../document-store.port';
import { expectCode, type ContractContext } from '../document-store-harness';

const BAD_FILTERS: Array<[label: string, filter: unknown]> = [
  ['unknown operator', { status: { $regex: '^o' } }],
  ['operator at the top', { $where: 'true' }],
  ['object value', { meta: { owner: 'u1' } }],
  ['array value', { tags: ['a'] }],
  ['empty condition', { status: {} }],
  ['$in not an array', { status: { $in: 'open' } }],
  ['$in with an object', { status: { $in: [{ a: 1 }] } }],
  ['range on a boolean', { n: { $gt: true } }],
  ['range on null', { n: { $lt: null } }],
  ['NaN', { n: Number.NaN }],
  ['path with a quote', { "a'); DROP TABLE x; --": 1 }],
  ['path with spaces', { 'a b': 1 }],
  ['empty path segment', { 'a..b': 1 }],
  ['nested under _id', { '_id.x': 1 }],
  ['_id compared with a number', { _id: 1 }],
  ['the reserved _version', { _version: 1 }],
  ['not an object', 'status = open'],
];

const BAD_SORTS: Array<[label: string, sort: unknown]> = [
  ['direction 0', [['a', 0]]],
  ['not pairs', ['a']],
  [
    'twice the same field',
    [
      ['a', 1],
      ['a', -1],
    ],
  ],
  [
    '_id not last',
    [
      ['_id', 1],
      ['a', 1],
    ],
  ],
  ['bad path', [['a-b', 1]]],
  ['an object', { a: 1 }],
];

const BAD_DOCUMENTS: Array<[label: string, document: unknown]> = [
  ['no _id', { n: 1 }],
  ['numeric _id', { _id: 1 }],
  ['empty _id', { _id: '' }],
  ['$ field', { _id: 'a', $set: { n: 1 } }],
  ['dotted field', { _id: 'a', 'a.b': 1 }],
  ['nested $ field', { _id: 'a', meta: { $inc: 1 } }],
  ['NaN', { _id: 'a', n: Number.NaN }],
  ['Infinity', { _id: 'a', n: Number.POSITIVE_INFINITY }],
  ['Date', { _id: 'a', at: new Date(0) }],
  ['undefined in an array', { _id: 'a', list: [1, undefined] }],
  ['a function', { _id: 'a', f: () => 1 }],
  ['not an object', ['a']],
];

export function invalidInputContract({ store, collection }: ContractContext): void {
  describe('invalid input gets a typed error and changes nothing', () => {
    it.each(BAD_FILTERS)('filter: %s', async (_label, filter) => {
      const c = collection('bad');
      await store().upsert(c, { _id: 'a', status: 'open' });
      await expectCode(store().find(c, { filter: filter as Filter }), 'INVALID_QUERY');
      await expectCode(store().count(c, filter as Filter), 'INVALID_QUERY');
      expect(await store().count(c)).toBe(1);
    });

    it.each(BAD_SORTS)('sort: %s', async (_label, sort) => {
      await expectCode(store().find(collection('bad'), { sort } as FindQuery), 'INVALID_QUERY');
    });

    it.each(BAD_DOCUMENTS)('document: %s', async (_label, document) => {
      const c = collection('bad');
      await expectCode(store().upsert(c, document as DocumentInput), 'INVALID_DOCUMENT');
      await expectCode(
        store().bulkWrite(c, [{ type: 'upsert', document: document as DocumentInput }]),
        'INVALID_DOCUMENT',
      );
      expect(await store().count(c)).toBe(0);
    });

    it.each(['', 'has space', '1starts_with_digit', 'a;b', 'dots.in.name', 'x'.repeat(65)])(
      'collection name %p',
      async (name) => {
        await expectCode(store().get(name, 'a'), 'INVALID_QUERY');
        await expectCode(store().upsert(name, { _id: 'a' }), 'INVALID_QUERY');
        await expectCode(store().ensureIndexes(name, [{ fields: { a: 1 } }]), 'INVALID_QUERY');
      },
    );

    it('index declarations', async () => {
      const c = collection('bad');
      await expectCode(store().ensureIndexes(c, [{ fields: {} }]), 'INVALID_QUERY');
      await expectCode(store().ensureIndexes(c, [{ fields: { _id: 1 } }]), 'INVALID_QUERY');
      await expectCode(store().ensureIndexes(c, [{ fields: { a: 2 } } as never]), 'INVALID_QUERY');
      await expectCode(store().ensureIndexes(c, [{ fields: { 'a b': 1 } }]), 'INVALID_QUERY');
      expect(await store().listCollections()).not.toContain(c);
    });

    it('ids', async () => {
      const c = collection('bad');
      await expectCode(store().get(c, ''), 'INVALID_DOCUMENT');
      await expectCode(store().getMany(c, ['a', 7 as never]), 'INVALID_DOCUMENT');
      await expectCode(store().delete(c, 'x'.repeat(513)), 'INVALID_DOCUMENT');
    });
  });
}
