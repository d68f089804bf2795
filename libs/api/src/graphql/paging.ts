import { z } from 'zod';
import { InvalidQueryError, type DocumentInput, type Page, type StoredDocument } from '@lomo/read-models';
import { validationFailed } from '@lomo/contracts';
import type { ConnectionShape, Edge } from './types/connection';

/** Edges inside a page resume by skipping from the page's start; bounded so a fetch stays small. */
const MAX_SKIP = 400;

const cursorSchema = z.strictObject({
  v: z.literal(1),
  /** The read-model store's keyset cursor the page started after. */
  a: z.string().min(1).max(4_096).optional(),
  s: z.number().int().min(0).max(MAX_SKIP),
});

/** Offsets into a list held in one document (a turn's steps, its ledger). */
const offsetSchema = z.strictObject({ v: z.literal(1), o: z.number().int().min(0).max(1_000_000) });

interface Position {
  a?: string;
  s: number;
}

const badCursor = () => validationFailed([{ path: 'after', message: 'not a cursor this API issued' }]);

export function encodeCursor(position: Position): string {
  return Buffer.from(JSON.stringify({ v: 1, ...position }), 'utf8').toString('base64url');
}

function decode<T>(cursor: string, schema: z.ZodType<T>): T {
  if (cursor.length > 8_192 || !/^[A-Za-z0-9_-]+$/.test(cursor)) throw badCursor();
  try {
    return schema.parse(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')));
  } catch {
    throw badCursor();
  }
}

export function decodeCursor(cursor: string | null | undefined): Position {
  if (cursor === undefined || cursor === null) return { s: 0 };
  const { a, s } = decode(cursor, cursorSchema);
  return a === undefined ? { s } : { a, s };
}

const encodeOffset = (o: number) => Buffer.from(JSON.stringify({ v: 1, o }), 'utf8').toString('base64url');
const decodeOffset = (cursor: string | null | undefined) =>
  cursor === undefined || cursor === null ? 0 : decode(cursor, offsetSchema).o;

function connection<N>(edges: Edge<N>[], hasNextPage: boolean, after: string | null | undefined): ConnectionShape<N> {
  return {
    edges,
    pageInfo: {
      hasNextPage,
      hasPreviousPage: after !== undefined && after !== null,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? after ?? null,
    },
  };
}

/**
 * A page of a read-model query as a Relay connection. The store hands out one keyset cursor per
 * page, after its last document; an edge inside the page resumes as "that page's start, skipping
 * i + 1", and the last edge carries the store's cursor itself, so paging on costs no skipping.
 */
export async function pageOfStore<D extends DocumentInput, N>(
  fetch: (after: string | undefined, limit: number) => Promise<Page<D>>,
  first: number,
  after: string | null | undefined,
  toNode: (document: StoredDocument<D>) => N,
): Promise<ConnectionShape<N>> {
  const start = decodeCursor(after);
  let page: Page<D>;
  try {
    page = await fetch(start.a, first + start.s);
  } catch (error) {
    if (error instanceof InvalidQueryError) throw badCursor();
    throw error;
  }
  const items = page.items.slice(start.s);
  const edges = items.map((document, i) => ({
    node: toNode(document),
    cursor:
      i === items.length - 1 && page.endCursor !== undefined
        ? encodeCursor({ a: page.endCursor, s: 0 })
        : encodeCursor({ ...(start.a !== undefined ? { a: start.a } : {}), s: start.s + i + 1 }),
  }));
  return connection(edges, page.hasMore, after);
}

/** A list held inside one document (a turn's steps or ledger), paged by offset. */
export function pageOfList<T, N>(
  items: readonly T[],
  first: number,
  after: string | null | undefined,
  toNode: (item: T) => N,
): ConnectionShape<N> {
  const start = decodeOffset(after);
  const slice = items.slice(start, start + first);
  const edges = slice.map((item, i) => ({ node: toNode(item), cursor: encodeOffset(start + i + 1) }));
  return connection(edges, start + first < items.length, after);
}
