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

/** A JSON value in canonical form (keys sorted at every depth): the same value, the same bytes. */
export const canonicalJson = (value: unknown): string => JSON.stringify(sortedKeys(value));

/**
 * The sha-256 (hex) of a JSON value in canonical form (keys sorted at every depth): what an
 * approval card records of the call it shows, so the same call hashes the same wherever it is
 * computed (the runtime for tool calls, the generation service for orders).
 */
export function canonicalDigest(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value), 'utf8').digest('hex');
}
