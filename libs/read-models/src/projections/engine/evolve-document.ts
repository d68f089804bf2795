import type { KnownEvent } from './known-event';
import type { AnyProjection, ProjectionDocument } from './projection-definition';
import { withRevision } from './stream-revisions';

/**
 * One event applied to one document's fields: the projection's evolve and derive, then the tenant
 * (kept from the document's first event). `_streams` is left to the caller.
 */
export function evolveFields(
  definition: AnyProjection,
  current: ProjectionDocument | undefined,
  id: string,
  event: KnownEvent,
): ProjectionDocument {
  const base = current ?? definition.blank(id, event);
  const evolved = definition.evolve(base, event);
  const derived = definition.derive ? definition.derive(evolved) : evolved;
  // evolve and derive return a fresh object unless nothing changed: the engine's fields are set
  // on it rather than on one more copy of the whole document (a rebuild does this per event).
  const next = derived === base ? { ...base } : derived;
  next._id = id;
  next.workspaceId = base.workspaceId;
  return next;
}

/** One event applied to one document, its stream revision included. Pure. */
export function evolveDocument(
  definition: AnyProjection,
  current: ProjectionDocument | undefined,
  id: string,
  event: KnownEvent,
): ProjectionDocument {
  const next = evolveFields(definition, current, id, event);
  next._streams = withRevision(current?._streams ?? {}, event.metadata.streamId, event.metadata.revision);
  return next;
}
