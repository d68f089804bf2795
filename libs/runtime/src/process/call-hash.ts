import { createHash } from 'node:crypto';

/** Object keys in order, so the same arguments hash the same whatever order the model wrote them in. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
  );
}

/**
 * The sha-256 of a call as its approval card shows it (tool and arguments). The card records it;
 * an approval whose card names another hash is never applied to the call (DESIGN.md §5: an
 * ambiguous authorization refuses rather than runs).
 */
export function callArgumentsHash(tool: string, args: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify([tool, canonical(args)]), 'utf8')
    .digest('hex');
}
