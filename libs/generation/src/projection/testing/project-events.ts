import type { Actor } from '@lomo/contracts';
import {
  evolveDocument,
  type AnyProjection,
  type KnownEvent,
  type ProjectionContext,
  type ProjectionDocument,
} from '@lomo/read-models';

// Projection specs: domain events (made by the deciders) become stored events of one stream, and
// are applied the way the engine applies them (documentIds, evolve, derive, stream revisions).

const noTurns: ProjectionContext = {
  knownTaskOfTurn: () => undefined,
  taskOfTurn: () => Promise.resolve(undefined),
};

export interface StreamOf {
  streamId: string;
  workspaceId: string;
  events: ReadonlyArray<{ type: string; data: unknown; recordedBy?: Actor }>;
  /** Who recorded each event unless it names its own; default the generation system component. */
  actor?: Actor;
  /** The first revision (0 unless the history continues an earlier one). */
  from?: number;
}

export function storedEvents(stream: StreamOf): KnownEvent[] {
  const base = Date.parse('2026-11-30T08:00:00.000Z');
  return stream.events.map((e, i) => {
    const revision = (stream.from ?? 0) + i;
    return {
      type: e.type,
      data: e.data,
      metadata: {
        eventId: `00000000-0000-4000-8000-${String(revision).padStart(12, '0')}`,
        streamId: stream.streamId,
        revision,
        globalPosition: String(revision + 1),
        occurredAt: new Date(base + revision * 1000).toISOString(),
        schemaVersion: 1,
        correlationId: 'test',
        causationId: null,
        workspaceId: stream.workspaceId,
        actor: e.recordedBy ?? stream.actor ?? { kind: 'system', component: 'generation' },
      },
    } as KnownEvent;
  });
}

/** The projection's documents after the events, by id; duplicates (same stream revision) skipped. */
export async function project(
  definition: AnyProjection,
  events: readonly KnownEvent[],
): Promise<Map<string, ProjectionDocument>> {
  const docs = new Map<string, ProjectionDocument>();
  for (const event of events) {
    if (!definition.handles.includes(event.type)) continue;
    for (const id of await definition.documentIds(event, noTurns)) {
      const current = docs.get(id);
      const applied = current?._streams[event.metadata.streamId] ?? -1;
      if (applied >= event.metadata.revision) continue;
      docs.set(id, evolveDocument(definition, current, id, event));
    }
  }
  return docs;
}
