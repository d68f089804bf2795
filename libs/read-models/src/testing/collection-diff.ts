import { createHash } from 'node:crypto';
import type { DocumentStore } from '../document-store/document-store.port';

/**
 * Every document of a collection by id, as canonical JSON (keys sorted) without `_version`: the
 * store's write counter, which differs between a live collection (one compare-and-set write per
 * change) and a rebuilt one (one bulk write per document) holding the same document. `digest`
 * keeps a hash of that JSON instead.
 */
export async function readCollection(
  documents: DocumentStore,
  collection: string,
  options: { digest?: boolean } = {},
): Promise<Map<string, string>> {
  // A digest instead of the JSON keeps hundreds of thousands of documents in little memory.
  const value =
    options.digest === true
      ? (json: string) => createHash('sha256').update(json).digest('base64')
      : (json: string) => json;
  const byId = new Map<string, string>();
  let after: string | undefined;
  for (;;) {
    const page = await documents.find(collection, { limit: 500, after });
    for (const { _version: _ignored, ...document } of page.items)
      byId.set(document._id, value(canonicalJson(document)));
    if (!page.hasMore) break;
    after = page.endCursor;
  }
  return byId;
}

export interface CollectionDiff {
  equal: boolean;
  /** Ids only on the left, only on the right, on both with other content (at most 10 of each). */
  missing: string[];
  extra: string[];
  different: string[];
  counts: { left: number; right: number; missing: number; extra: number; different: number };
}

export function diffCollections(left: ReadonlyMap<string, string>, right: ReadonlyMap<string, string>): CollectionDiff {
  const missing: string[] = [];
  const different: string[] = [];
  const extra: string[] = [];
  for (const [id, json] of left) {
    const other = right.get(id);
    if (other === undefined) missing.push(id);
    else if (other !== json) different.push(id);
  }
  for (const id of right.keys()) if (!left.has(id)) extra.push(id);
  return {
    equal: missing.length === 0 && extra.length === 0 && different.length === 0,
    missing: missing.slice(0, 10),
    extra: extra.slice(0, 10),
    different: different.slice(0, 10),
    counts: {
      left: left.size,
      right: right.size,
      missing: missing.length,
      extra: extra.length,
      different: different.length,
    },
  };
}

export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
        )
      : v,
  );
}
