import type { StreamCategory } from '@lomo/contracts';
import type { DocumentInput, IndexSpec } from '../../document-store/document-store.port';
import type { KnownEvent, KnownEventType } from './known-event';
import type { StreamRevisions } from './stream-revisions';

/**
 * What every read-model document carries: its tenant and the revision of each source stream it
 * has applied. `_streams` is the engine's business; projections never write it.
 */
export type ProjectionDocument = DocumentInput & {
  workspaceId: string;
  _streams: StreamRevisions;
};

/**
 * Who may change a field. A field is written by events of exactly one source stream, so events
 * of different streams can arrive in any order and still give the same document:
 * - `stream`: the document's one stream of that category (a task document's `task-<id>`);
 * - `entry-per-stream`: a map keyed by the entity id of streams of that category, each entry
 *   written only by its own stream (a task document's `turnActivity[<turnId>]` by `turn-<turnId>`);
 * - `derived`: recomputed from the other fields after every event, never from an event directly.
 * `workspaceId` is set by the engine from event metadata; every source stream of a document
 * belongs to the same workspace.
 */
export type FieldOwner =
  | { readonly owner: 'stream'; readonly category: StreamCategory }
  | { readonly owner: 'entry-per-stream'; readonly category: StreamCategory }
  | { readonly owner: 'derived' };

/** Named fields of a document type, without the index signature DocumentInput brings. */
export type DeclaredFields<D> = keyof {
  [K in keyof D as string extends K ? never : number extends K ? never : K]: D[K];
};

export type FieldOwnership<D extends ProjectionDocument> = {
  readonly [K in Exclude<DeclaredFields<D>, keyof ProjectionDocument | '_id'>]: FieldOwner;
};

/** Facts a projection may need to find its documents, beyond the event itself. */
export interface ProjectionContext {
  /** The task a turn belongs to when it is known without a read (the common case). */
  knownTaskOfTurn(turnId: string): string | undefined;
  /** The task a turn belongs to (from the turn stream's TurnStarted); undefined if unknown. */
  taskOfTurn(turnId: string): Promise<string | undefined>;
}

/**
 * A projection: pure functions from events to documents, plus what the engine needs to store
 * them. `blank` gives a document before any event touched it, with every owned field at its
 * "not known yet" value; `evolve` must be pure and deterministic (time comes from the event's
 * metadata), or a rebuild would not equal the live state.
 */
export interface ProjectionDefinition<D extends ProjectionDocument = ProjectionDocument> {
  /** Logical name readers resolve through `projection_aliases`: lowercase letters, digits, `_`. */
  readonly name: string;
  /** Bumped when the shape or the evolve logic changes: the engine rebuilds `<name>_v<version>`. */
  readonly version: number;
  /** Every event of these categories advances this projection's stream revisions. */
  readonly categories: readonly StreamCategory[];
  /** Event types `evolve` uses; the others only advance revisions. */
  readonly handles: readonly KnownEventType[];
  readonly indexes: readonly IndexSpec[];
  readonly ownership: FieldOwnership<D>;
  documentIds(event: KnownEvent, context: ProjectionContext): readonly string[] | Promise<readonly string[]>;
  blank(id: string, event: KnownEvent): D;
  evolve(document: D, event: KnownEvent): D;
  /** Recomputes `derived` fields; runs after every evolve. */
  derive?(document: D): D;
}

/** The definition with its document type erased, for collections of projections. */
export type AnyProjection = ProjectionDefinition<ProjectionDocument>;

export const eraseProjectionType = <D extends ProjectionDocument>(definition: ProjectionDefinition<D>): AnyProjection =>
  definition as unknown as AnyProjection;
