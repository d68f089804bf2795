import type { Page, StoredDocument } from '@lomo/read-models';
import { pageOfList, pageOfStore } from './paging';

type Doc = { _id: string; workspaceId: string; _streams: Record<string, number> };
const docs: StoredDocument<Doc>[] = Array.from({ length: 7 }, (_, i) => ({
  _id: `d${i}`,
  workspaceId: 'w',
  _streams: {},
  _version: 1,
}));

/** A store whose keyset cursor is the index of the last document returned. */
const fetch = async (after: string | undefined, limit: number): Promise<Page<Doc>> => {
  const start = after === undefined ? 0 : Number(after) + 1;
  const items = docs.slice(start, start + limit);
  return {
    items,
    endCursor: items.length ? String(start + items.length - 1) : undefined,
    hasMore: start + limit < docs.length,
  };
};
const ids = (c: { edges: Array<{ node: string }> }) => c.edges.map((e) => e.node);

describe('pageOfStore', () => {
  it('pages with the end cursor and resumes from any edge’s cursor', async () => {
    const first = await pageOfStore(fetch, 3, undefined, (d) => d._id);
    expect(ids(first)).toEqual(['d0', 'd1', 'd2']);
    expect(first.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    const second = await pageOfStore(fetch, 3, first.pageInfo.endCursor, (d) => d._id);
    expect(ids(second)).toEqual(['d3', 'd4', 'd5']);
    const fromMiddle = await pageOfStore(fetch, 2, first.edges[1].cursor, (d) => d._id);
    expect(ids(fromMiddle)).toEqual(['d2', 'd3']);
    const last = await pageOfStore(fetch, 3, second.pageInfo.endCursor, (d) => d._id);
    expect({ ids: ids(last), hasNextPage: last.pageInfo.hasNextPage }).toEqual({ ids: ['d6'], hasNextPage: false });
  });

  it('refuses a cursor it did not issue with VALIDATION_FAILED', async () => {
    await expect(pageOfStore(fetch, 3, 'bm9wZQ', (d) => d._id)).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
  });
});

describe('pageOfList', () => {
  it('pages a list held in one document by offset', () => {
    const items = ['a', 'b', 'c', 'd', 'e'];
    const first = pageOfList(items, 2, undefined, (x) => x);
    const second = pageOfList(items, 2, first.pageInfo.endCursor, (x) => x);
    const third = pageOfList(items, 2, second.pageInfo.endCursor, (x) => x);
    expect([ids(first), ids(second), ids(third)]).toEqual([['a', 'b'], ['c', 'd'], ['e']]);
    expect([first.pageInfo.hasNextPage, third.pageInfo.hasNextPage]).toEqual([true, false]);
  });
});
