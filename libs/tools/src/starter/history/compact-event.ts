import type { EventEnvelope } from '@lomo/contracts';
import type { JsonValue } from '../../tool.port';

const MAX_TEXT = 160;
const MAX_LISTED = 5;

/**
 * One event as a flat, short record for the model: type, revision, time and the event's scalar
 * fields (long text cut). Nested structures are reduced to what they name, so one event never
 * costs more than a few dozen tokens whatever its payload.
 */
export function compactEvent(event: EventEnvelope): { [key: string]: JsonValue } {
  const compact: { [key: string]: JsonValue } = {
    rev: event.metadata.revision,
    type: event.type,
    at: event.metadata.occurredAt,
  };
  if (typeof event.data !== 'object' || event.data === null) return compact;
  for (const [key, value] of Object.entries(event.data)) {
    const reduced = reduce(value);
    if (reduced !== undefined) compact[key] = reduced;
  }
  return compact;
}

function reduce(value: unknown): JsonValue | undefined {
  if (typeof value === 'string') return value.length > MAX_TEXT ? `${value.slice(0, MAX_TEXT)}…` : value;
  if (typeof value === 'number' || typeof value === 'boolean') return value;
  if (Array.isArray(value)) return reduceList(value);
  if (typeof value === 'object' && value !== null) return nameOf(value);
  return undefined;
}

/** Lists keep their length and, when short, what their items name (tool names, ids). */
function reduceList(items: readonly unknown[]): JsonValue {
  const names = items.slice(0, MAX_LISTED).map((item) => (typeof item === 'string' ? item : nameOf(item)));
  if (names.every((n): n is string => typeof n === 'string')) {
    return items.length > MAX_LISTED ? [...names, `+${items.length - MAX_LISTED} more`] : names;
  }
  return `${items.length} item(s)`;
}

/** The field an object is best known by (a tool call by its tool, an error by its code). */
function nameOf(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const record = value as Record<string, unknown>;
  for (const key of ['tool', 'code', 'kind', 'title', 'itemId']) {
    const named = record[key];
    if (typeof named === 'string') return named.length > MAX_TEXT ? `${named.slice(0, MAX_TEXT)}…` : named;
  }
  return undefined;
}
