import { createHash } from 'node:crypto';

/** Object keys in order at every depth, so the same value serialises the same however it was built. */
function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortedKeys((value as Record<string, unknown>)[key])]),
  );
}

/**
 * The sha-256 (hex) of a JSON value in canonical form (keys sorted at every depth): what an
 * approval card records of the call it shows, so the same call hashes the same wherever it is
 * computed (the runtime for tool calls, the generation service for orders).
 */
export function canonicalDigest(value: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify(sortedKeys(value)), 'utf8')
    .digest('hex');
}
