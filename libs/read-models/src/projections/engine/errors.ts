import { LomoError } from '@lomo/contracts';

/** The store returned fewer events than a gap needs: it is behind the feed (retry later). */
export class ProjectionGapError extends LomoError {
  readonly code = 'PROJECTION_GAP_UNFILLED';
  readonly retriable = true;
  constructor(
    readonly projection: string,
    readonly streamId: string,
    readonly fromRevision: number,
    readonly toRevision: number,
    readonly found: number,
  ) {
    super(`${projection}: ${streamId} revisions ${fromRevision}..${toRevision} are missing from the store`, {
      projection,
      streamId,
      fromRevision,
      toRevision,
      found,
    });
  }
}

/** Compare-and-set kept failing: other writers are hammering the same document. */
export class ProjectionWriteConflictError extends LomoError {
  readonly code = 'PROJECTION_WRITE_CONFLICT';
  readonly retriable = true;
  constructor(
    readonly collection: string,
    readonly documentId: string,
    readonly attempts: number,
  ) {
    super(`${collection}/${documentId}: still conflicting after ${attempts} attempts`, {
      collection,
      documentId,
      attempts,
    });
  }
}

/** A projection definition the engine refuses (bad name or version, duplicate names). */
export class InvalidProjectionError extends LomoError {
  readonly code = 'INVALID_PROJECTION';
  readonly retriable = false;
  constructor(
    readonly projection: string,
    reason: string,
  ) {
    super(`Projection ${projection}: ${reason}`, { projection, reason });
  }
}

/** A consistency token whose revisions the read models did not reach within the wait. */
export class ConsistencyTimeoutError extends LomoError {
  readonly code = 'CONSISTENCY_TIMEOUT';
  readonly retriable = true;
  constructor(
    readonly pending: ReadonlyArray<{ streamId: string; revision: number }>,
    readonly waitedMs: number,
  ) {
    super(`Read models did not reach ${pending.length} stream revision(s) within ${waitedMs} ms`, {
      pending,
      waitedMs,
    });
  }
}

/** A consistency token that is not one this backend issued. */
export class InvalidConsistencyTokenError extends LomoError {
  readonly code = 'INVALID_CONSISTENCY_TOKEN';
  readonly retriable = false;
  constructor(reason: string) {
    super(`Invalid consistency token: ${reason}`, { reason });
  }
}

/** The projector reports itself unhealthy (a failed projection or lag beyond the limit). */
export class ProjectorUnhealthyError extends LomoError {
  readonly code = 'PROJECTOR_UNHEALTHY';
  readonly retriable = true;
  constructor(reasons: readonly string[]) {
    super(`Projector unhealthy: ${reasons.join('; ')}`, { reasons });
  }
}

/** The projector was asked to stop while rebuilding; the next start rebuilds again. */
export class RebuildInterruptedError extends LomoError {
  readonly code = 'PROJECTION_REBUILD_INTERRUPTED';
  readonly retriable = true;
  constructor(readonly projections: readonly string[]) {
    super(`Rebuild of ${projections.join(', ')} interrupted by a stop`, { projections });
  }
}

/**
 * An operator's rebuild refused before anything switched: a newer version is live, another
 * instance holds the rebuild lease, or the alias moved meanwhile.
 */
export class RebuildRefusedError extends LomoError {
  readonly code = 'PROJECTION_REBUILD_REFUSED';
  readonly retriable = false;
  constructor(
    readonly projection: string,
    readonly reason: string,
  ) {
    super(`Rebuild of ${projection} refused: ${reason}`, { projection, reason });
  }
}
