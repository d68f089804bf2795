import fc from 'fast-check';
import {
  DEFAULT_PAGE_SIZE,
  MAX_PAGE_SIZE,
  type DocumentInput,
  type DocumentStore,
  type Filter,
  type JsonScalar,
  type Sort,
  type StoredDocument,
} from '../../document-store.port';
import { expectCode, type ContractContext } from '../document-store-harness';

/** Values are read the way both backends sort them: missing = null = smallest. */
function valueAt(doc: Readonly<Record<string, unknown>>, path: string): JsonScalar {
  let value: unknown = doc;
  for (const segment of path.split('.')) value = (value as Record<string, unknown> | undefined)?.[segment];
  return (value ?? null) as JsonScalar;
}

function compareScalars(a: JsonScalar, b: JsonScalar): number {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  return a < b ? -1 : 1;
}

/** The order the port promises: the sort keys, then `_id` ascending. */
export function referenceCompare(sort: Sort) {
  const keys = sort.some(([p]) => p === '_id') ? sort : [...sort, ['_id', 1] as const];
  return (x: Readonly<Record<string, unknown>>, y: Readonly<Record<string, unknown>>) => {
    for (const [path, direction] of keys) {
      const c = compareScalars(valueAt(x, path), valueAt(y, path));
      if (c !== 0) return c * direction;
    }
    return 0;
  };
}

async function readAllPages(
  store: DocumentStore,
  collection: string,
  query: { filter?: Filter; sort?: Sort; limit: number },
  betweenPages: (page: number) => Promise<void> = async () => undefined,
): Promise<StoredDocument[]> {
  const seen: StoredDocument[] = [];
  let after: string | undefined;
  for (let page = 0; page < 1_000; page += 1) {
    const result = await store.find(collection, { ...query, after });
    seen.push(...result.items);
    expect(result.items.length).toBeLessThanOrEqual(query.limit);
    if (!result.hasMore) return seen;
    expect(result.items).toHaveLength(query.limit);
    after = result.endCursor;
    await betweenPages(page);
  }
  throw new Error('Pagination did not end');
}

// Few distinct values, so ties and nulls are the rule, not the exception.
const docArbitrary = (id: string) =>
  fc.record(
    {
      _id: fc.constant(id),
      g: fc.constantFrom('x', 'y', null),
      k: fc.integer({ min: 0, max: 3 }),
      s: fc.constantFrom('a', 'B', 'b', 'ab', null),
      b: fc.boolean(),
      m: fc.record({ r: fc.oneof(fc.constant(0.5), fc.integer({ min: -2, max: 2 })) }, { requiredKeys: [] }),
    },
    { requiredKeys: ['_id'] },
  );
const docsArbitrary = fc
  .integer({ min: 0, max: 24 })
  .chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => docArbitrary(`d${String(i).padStart(3, '0')}`))));
const sortArbitrary: fc.Arbitrary<Sort> = fc.constantFrom<Sort>(
  [],
  [['g', 1]],
  [['k', -1]],
  [
    ['g', 1],
    ['k', -1],
  ],
  [
    ['s', -1],
    ['m.r', 1],
  ],
  [
    ['b', 1],
    ['s', 1],
    ['k', 1],
  ],
  [
    ['g', -1],
    ['_id', -1],
  ],
);
const filterArbitrary: fc.Arbitrary<Filter> = fc.constantFrom<Filter>(
  {},
  { g: { $in: ['x', null] } },
  { k: { $gte: 1 } },
);

const RUNS = Number(process.env.DOCUMENT_STORE_PROPERTY_RUNS ?? 20);

export function paginationContract({ store, collection }: ContractContext): void {
  describe('sort and cursor pagination', () => {
    it('sorts by several fields, nulls first ascending and last descending, _id breaking ties', async () => {
      const c = collection('sort');
      await store().bulkWrite(
        c,
        [
          { _id: '1', status: 'open', updatedAt: '2025-01-02' },
          { _id: '2', status: 'open', updatedAt: '2025-01-03' },
          { _id: '3', status: 'closed', updatedAt: '2025-01-01' },
          { _id: '4', status: 'open' },
          { _id: '5', updatedAt: '2025-01-09' },
          { _id: '0', status: 'open', updatedAt: '2025-01-03' },
        ].map((document) => ({ type: 'upsert' as const, document })),
      );
      const ids = async (sort: Sort) => (await store().find(c, { sort })).items.map((d) => d._id);
      expect(
        await ids([
          ['status', 1],
          ['updatedAt', -1],
        ]),
      ).toEqual(['5', '3', '0', '2', '1', '4']);
      expect(
        await ids([
          ['status', -1],
          ['updatedAt', 1],
        ]),
      ).toEqual(['4', '1', '0', '2', '3', '5']);
      expect(
        await ids([
          ['updatedAt', -1],
          ['_id', -1],
        ]),
      ).toEqual(['5', '2', '0', '1', '3', '4']);
      expect(await ids([])).toEqual(['0', '1', '2', '3', '4', '5']);
    });

    it('pages through ties and nulls in exactly the reference order (property)', async () => {
      await fc.assert(
        fc.asyncProperty(
          docsArbitrary,
          sortArbitrary,
          filterArbitrary,
          fc.integer({ min: 1, max: 7 }),
          async (docs, sort, filter, limit) => {
            const c = collection('pages');
            if (docs.length > 0)
              await store().bulkWrite(
                c,
                docs.map((document) => ({ type: 'upsert' as const, document })),
              );
            const read = await readAllPages(store(), c, { filter, sort, limit });
            const all = (await store().find(c, { filter, limit: MAX_PAGE_SIZE })).items;
            const expected = [...all].sort(referenceCompare(sort)).map((d) => d._id);
            expect(read.map((d) => d._id)).toEqual(expected);
          },
        ),
        { numRuns: RUNS },
      );
    });

    it('inserts between pages cause no duplicates and no gaps for existing documents (property)', async () => {
      await fc.assert(
        fc.asyncProperty(
          docsArbitrary,
          sortArbitrary,
          fc.integer({ min: 1, max: 5 }),
          fc.array(docArbitrary('new'), { minLength: 1, maxLength: 12 }),
          async (docs, sort, limit, inserts) => {
            const c = collection('inserts');
            if (docs.length > 0)
              await store().bulkWrite(
                c,
                docs.map((document) => ({ type: 'upsert' as const, document })),
              );
            const queue = inserts.map((d, i) => ({ ...d, _id: `n${String(i).padStart(3, '0')}` }));
            const read = await readAllPages(store(), c, { sort, limit }, async () => {
              const next = queue.splice(0, 2);
              if (next.length > 0)
                await store().bulkWrite(
                  c,
                  next.map((document) => ({ type: 'upsert' as const, document })),
                );
            });
            const ids = read.map((d) => d._id);
            expect(new Set(ids).size).toBe(ids.length);
            expect(ids).toEqual(expect.arrayContaining(docs.map((d) => d._id)));
            const compare = referenceCompare(sort);
            read.slice(1).forEach((doc, i) => expect(compare(read[i], doc)).toBeLessThan(0));
          },
        ),
        { numRuns: RUNS },
      );
    });

    it('reports hasMore and endCursor; a last page cursor later yields newer documents', async () => {
      const c = collection('cursor');
      await store().bulkWrite(
        c,
        ['a', 'b', 'c'].map((id) => ({ type: 'upsert' as const, document: { _id: id } })),
      );
      const first = await store().find(c, { limit: 2 });
      expect(first).toMatchObject({ hasMore: true, items: [{ _id: 'a' }, { _id: 'b' }] });
      const last = await store().find(c, { limit: 2, after: first.endCursor });
      expect(last).toMatchObject({ hasMore: false, items: [{ _id: 'c' }] });
      const empty = await store().find(c, { limit: 2, after: last.endCursor });
      expect(empty).toEqual({ items: [], endCursor: undefined, hasMore: false });
      await store().upsert(c, { _id: 'd' });
      expect((await store().find(c, { limit: 2, after: last.endCursor })).items.map((d) => d._id)).toEqual(['d']);
    });

    it(`returns at most ${DEFAULT_PAGE_SIZE} documents by default and refuses more than ${MAX_PAGE_SIZE}`, async () => {
      const c = collection('limits');
      const docs: DocumentInput[] = Array.from({ length: DEFAULT_PAGE_SIZE + 1 }, (_, i) => ({ _id: `x${i}` }));
      await store().bulkWrite(
        c,
        docs.map((document) => ({ type: 'upsert' as const, document })),
      );
      expect(await store().find(c)).toMatchObject({ hasMore: true, items: expect.any(Array) });
      expect((await store().find(c)).items).toHaveLength(DEFAULT_PAGE_SIZE);
      await expect(store().find(c, { limit: MAX_PAGE_SIZE + 1 })).rejects.toMatchObject({
        code: 'PAGE_SIZE_EXCEEDED',
        retriable: false,
        requested: MAX_PAGE_SIZE + 1,
        maximum: MAX_PAGE_SIZE,
      });
      await expectCode(store().find(c, { limit: 0 }), 'INVALID_QUERY');
      await expectCode(store().find(c, { limit: 2.5 }), 'INVALID_QUERY');
    });

    it('refuses a cursor from another sort, and a forged or malformed cursor', async () => {
      const c = collection('cursor');
      await store().bulkWrite(
        c,
        ['a', 'b'].map((id) => ({ type: 'upsert' as const, document: { _id: id, n: 1 } })),
      );
      const { endCursor } = await store().find(c, { sort: [['n', 1]], limit: 1 });
      await expectCode(store().find(c, { sort: [['n', -1]], after: endCursor }), 'INVALID_QUERY');
      await expectCode(store().find(c, { after: endCursor }), 'INVALID_QUERY');
      await expectCode(store().find(c, { after: 'not-a-cursor' }), 'INVALID_QUERY');
      const forged = Buffer.from(JSON.stringify({ f: 1, s: 'n:1,_id:1', k: [{ $gt: 1 }, 'a'] })).toString('base64url');
      await expectCode(store().find(c, { sort: [['n', 1]], after: forged }), 'INVALID_QUERY');
    });
  });
}
