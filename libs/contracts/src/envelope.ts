import { z } from 'zod';
import { isoDateTime, userId, uuid, workspaceId } from './ids';

/** Who caused an event: a person, the agent, or a component of the system. */
export const actorSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('user'), userId }),
  z.strictObject({ kind: z.literal('agent') }),
  z.strictObject({ kind: z.literal('system'), component: z.string().regex(/^[a-z][a-z0-9-]{0,63}$/) }),
]);
export type Actor = z.infer<typeof actorSchema>;

/** Correlation and causation ids may come from clients (HTTP headers), so they are bounded strings. */
export const traceId = z.string().regex(/^[A-Za-z0-9_.:-]{1,128}$/, 'trace ids are 1-128 of [A-Za-z0-9_.:-]');

/** What the writer supplies with each event; the store adds stream, revision, position and time. */
export const writeMetadataSchema = z.strictObject({
  correlationId: traceId,
  causationId: traceId.nullable(),
  workspaceId,
  actor: actorSchema,
  /** Execution generation of the worker that wrote it (runtime writes only). */
  generation: z.number().int().min(1).optional(),
});
export type WriteMetadata = z.infer<typeof writeMetadataSchema>;

/** Full metadata of a stored event, as DESIGN.md §3 lists it. */
export const eventMetadataSchema = writeMetadataSchema.extend({
  eventId: uuid,
  streamId: z.string().min(3).max(220),
  revision: z.number().int().min(0),
  /** Opaque: compare only through the store; never assume contiguity or a numeric form. */
  globalPosition: z.string().min(1).max(64),
  occurredAt: isoDateTime,
  /** The schema version of `data` as returned (after upcasting this is always the current one). */
  schemaVersion: z.number().int().min(1),
});
export type EventMetadata = z.infer<typeof eventMetadataSchema>;

/** An event ready to append. */
export interface NewEvent<TType extends string = string, TData = unknown> {
  eventId: string;
  type: TType;
  data: TData;
  metadata: WriteMetadata;
}

/** A stored event, parsed and upcast to its current schema. */
export interface EventEnvelope<TType extends string = string, TData = unknown> {
  type: TType;
  data: TData;
  metadata: EventMetadata;
}

export const newEventSchema = z.strictObject({
  eventId: uuid,
  type: z.string().regex(/^[A-Z][A-Za-z0-9]{1,79}$/),
  data: z.unknown(),
  metadata: writeMetadataSchema,
});

export type { z };
