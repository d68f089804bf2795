import { isDeepStrictEqual } from 'node:util';
import { categoryOf } from '@lomo/contracts';
import type { KnownEvent } from './known-event';
import type { AnyProjection, FieldOwner, ProjectionDocument } from './projection-definition';
import { entityIdOf, streamIdOfKey } from './stream-revisions';

export interface OwnershipViolation {
  field: string;
  streamId: string;
  eventType: string;
  reason: string;
}

const ENGINE_FIELDS = new Set(['_id', '_streams', 'workspaceId']);

function changedKeys(before: unknown, after: unknown): string[] {
  const a = (before ?? {}) as Record<string, unknown>;
  const b = (after ?? {}) as Record<string, unknown>;
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => !isDeepStrictEqual(a[k], b[k]));
}

/**
 * Checks one application of an event against the projection's declared ownership: every field
 * it changed must belong to the event's stream, and derived fields must equal what `derive`
 * computes. Tests run every event of a scenario through this; the engine does not (it is a
 * property of the projection code, not of the data).
 */
export function ownershipViolations(
  definition: AnyProjection,
  before: ProjectionDocument | undefined,
  after: ProjectionDocument,
  event: KnownEvent,
): OwnershipViolation[] {
  const { streamId } = event.metadata;
  const category = categoryOf(streamId);
  const base = before ?? definition.blank(after._id, event);
  const ownership = definition.ownership as Readonly<Record<string, FieldOwner | undefined>>;
  const violations: OwnershipViolation[] = [];
  const violation = (field: string, reason: string) =>
    violations.push({ field, streamId, eventType: event.type, reason });
  const streamsOf = (c: string) => Object.keys(after._streams).filter((k) => categoryOf(streamIdOfKey(k)) === c);

  for (const field of changedKeys(base, after)) {
    if (ENGINE_FIELDS.has(field)) continue;
    const owner = ownership[field];
    if (owner === undefined) {
      violation(field, 'not declared in the ownership map');
    } else if (owner.owner === 'stream') {
      if (owner.category !== category) violation(field, `owned by the ${owner.category} stream`);
      else if (streamsOf(category).length > 1) violation(field, `the document follows several ${category} streams`);
    } else if (owner.owner === 'entry-per-stream') {
      if (owner.category !== category) violation(field, `entries owned by ${owner.category} streams`);
      const entries = changedKeys(base[field], after[field]);
      const own = entityIdOf(streamId);
      if (entries.some((key) => key !== own))
        violation(field, `changed entries ${entries.join(', ')}, may only change ${own}`);
    }
  }
  if (definition.derive) {
    const derived = definition.derive(after);
    for (const [field, owner] of Object.entries(ownership)) {
      if (owner?.owner === 'derived' && !isDeepStrictEqual(derived[field], after[field])) {
        violation(field, 'derived field differs from derive()');
      }
    }
  }
  return violations;
}
