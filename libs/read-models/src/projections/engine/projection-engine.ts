import type { EventEnvelope } from '@lomo/contracts';
import type { EventStore } from '@lomo/eventstore';
import type { Logger } from '@lomo/observability';
import { DocumentConflictError } from '../../document-store/document-store.errors';
import type { DocumentStore } from '../../document-store/document-store.port';
import { AppliedStreams } from './applied-streams';
import { type ChangeNotice, type ChangeNoticeSink, discardChangeNotices } from './change-notice';
import { documentOf, DocumentWorkingSet, withoutVersion, type DocumentSlot } from './document-working-set';
import { ProjectionGapError, ProjectionWriteConflictError } from './errors';
import { evolveDocument, evolveFields } from './evolve-document';
import { asKnownEvent, type KnownEvent } from './known-event';
import { streamsCollection } from './physical-names';
import type { AnyProjection, ProjectionContext, ProjectionDocument } from './projection-definition';
import { decodeRevisions, revisionIn, streamKey } from './stream-revisions';

/** The context plus a hook that sees every event applied, in stream order. */
export interface EngineContext extends ProjectionContext {
  observe(event: KnownEvent): void;
}

export interface ProjectionEngineDependencies {
  documents: DocumentStore;
  /** Where gaps are filled from. */
  events: Pick<EventStore, 'readStream'>;
  context: EngineContext;
  logger: Logger;
  notices?: ChangeNoticeSink;
  /** Rebuild memory bounds; the defaults suit millions of events. */
  tuning?: EngineTuning;
}

export interface EngineTuning {
  /** Clean documents kept in memory between batches (the least recently loaded go first). */
  cachedDocuments?: number;
  /**
   * Dirty documents that trigger a write: a document touched across several batches is written
   * once, not once per batch.
   */
  flushAfterDocuments?: number;
}

/**
 * live: any number of instances may write the collection; documents are written one by one with
 * compare-and-set, notices are published. rebuild: a fresh collection with this engine as its only
 * writer; documents stay cached between batches and are written with bulk writes, no notices.
 */
export type EngineMode = 'live' | 'rebuild';

export interface BatchResult {
  /** Events that advanced a stream revision (including those read to fill gaps). */
  applied: number;
  /** Events at or below the stream's applied revision: skipped. */
  duplicates: number;
  /** Events read from the store because a later revision arrived first. */
  gapFilled: number;
  /** Compare-and-set conflicts resolved by re-reading. */
  conflicts: number;
  notices: ChangeNotice[];
}

const MAX_WRITE_ATTEMPTS = 20;
const DEFAULT_FLUSH_AFTER_DOCUMENTS = 5_000;
const DEFAULT_CACHED_DOCUMENTS = 10_000;

/**
 * Applies events to one projection's physical collection. An event is applied only as the next
 * revision of its stream (the applied revision lives in `<physical>_streams`): an older or equal
 * one is a duplicate; a later one first reads the missing revisions from the store. A document
 * whose own `_streams` already holds the revision is left alone, so a repeat after a crash (the
 * document written, the stream revision not yet) changes nothing. Every event of a source stream
 * advances the revision, whether the projection uses it or not.
 */
export class ProjectionEngine {
  readonly collection: string;
  readonly streams: AppliedStreams;
  private readonly workingSet: DocumentWorkingSet;
  private readonly handled: ReadonlySet<string>;
  /** `<category>-` of each source category: a prefix test is cheaper than parsing every stream id. */
  private readonly prefixes: readonly string[];
  private readonly notices: ChangeNoticeSink;
  private readonly logger: Logger;
  private readonly flushAfterDocuments: number;
  private result: BatchResult = emptyResult();

  constructor(
    readonly definition: AnyProjection,
    physical: string,
    readonly mode: EngineMode,
    private readonly deps: ProjectionEngineDependencies,
  ) {
    this.collection = physical;
    const exclusive = mode === 'rebuild';
    this.streams = new AppliedStreams(deps.documents, streamsCollection(physical), { exclusive });
    this.workingSet = new DocumentWorkingSet(deps.documents, physical, {
      exclusive,
      capacity: deps.tuning?.cachedDocuments ?? DEFAULT_CACHED_DOCUMENTS,
    });
    this.flushAfterDocuments = deps.tuning?.flushAfterDocuments ?? DEFAULT_FLUSH_AFTER_DOCUMENTS;
    this.handled = new Set(definition.handles);
    this.prefixes = definition.categories.map((c) => `${c}-`);
    this.notices = deps.notices ?? discardChangeNotices;
    this.logger = deps.logger.child({ projection: definition.name, collection: physical, mode });
  }

  /** Whether events of this stream category concern the projection at all. */
  reads(event: EventEnvelope): boolean {
    const { streamId } = event.metadata;
    for (const prefix of this.prefixes) if (streamId.startsWith(prefix)) return true;
    return false;
  }

  /**
   * Applies a batch in order: documents first, then (live) the change notices, then the stream
   * revisions. Any error leaves the stream revisions where they were, so the batch can be redone.
   */
  async apply(events: readonly EventEnvelope[]): Promise<BatchResult> {
    this.result = emptyResult();
    const mine = events.filter((e) => this.reads(e));
    if (mine.length === 0) return this.result;
    try {
      await this.streams.preload(mine.map((e) => e.metadata.streamId));
      for (const event of mine) {
        const waiting = this.consider(event);
        if (waiting !== undefined) await waiting;
      }
      if (this.mode === 'rebuild') {
        if (this.workingSet.dirtyCount >= this.flushAfterDocuments) await this.flush();
      } else {
        const notices = await this.writeLive(this.workingSet.touched());
        this.result.notices = notices;
        await this.notices.publish(notices);
        await this.streams.flush();
      }
      return this.result;
    } catch (error) {
      this.streams.discardUnwritten();
      throw error;
    } finally {
      this.workingSet.endBatch();
    }
  }

  /** Rebuild: writes the documents still dirty, then the stream revisions. */
  async flush(): Promise<void> {
    await this.workingSet.flushBulk();
    await this.streams.flush();
  }

  /**
   * Returns a promise only when it has to read (a stream revision or a document not cached, a gap):
   * a rebuild applies most events without yielding, which is most of its speed.
   */
  private consider(event: EventEnvelope): Promise<void> | undefined {
    const { streamId, revision } = event.metadata;
    const known = this.streams.known(streamId);
    if (known !== undefined && revision <= known) {
      this.result.duplicates += 1;
      return undefined;
    }
    if (known !== undefined && revision === known + 1) return this.applyNext(event);
    return this.considerAfterReading(event);
  }

  private async considerAfterReading(event: EventEnvelope): Promise<void> {
    const { streamId, revision } = event.metadata;
    let applied = await this.streams.revision(streamId);
    if (revision > applied + 1 && this.mode === 'live') applied = await this.streams.reload(streamId);
    if (revision <= applied) {
      this.result.duplicates += 1;
      return;
    }
    if (revision > applied + 1) await this.fillGap(streamId, applied + 1, revision - 1);
    await this.applyNext(event);
  }

  private async fillGap(streamId: string, from: number, to: number): Promise<void> {
    const missing = await this.deps.events.readStream(streamId, { fromRevision: from, maxCount: to - from + 1 });
    const contiguous = missing.length === to - from + 1 && missing.every((e, i) => e.metadata.revision === from + i);
    if (!contiguous) throw new ProjectionGapError(this.definition.name, streamId, from, to, missing.length);
    this.logger.debug({ streamId, fromRevision: from, toRevision: to }, 'filling a gap from the event store');
    for (const event of missing) {
      this.result.gapFilled += 1;
      await this.applyNext(event);
    }
  }

  /** The event is the next revision of its stream for this projection. */
  private applyNext(envelope: EventEnvelope): Promise<void> | undefined {
    const event = asKnownEvent(envelope);
    if (event !== undefined) {
      this.deps.context.observe(event);
      if (this.handled.has(event.type)) {
        const ids = this.definition.documentIds(event, this.deps.context);
        const waiting = Array.isArray(ids)
          ? this.applyToDocuments(ids, event)
          : (ids as Promise<readonly string[]>).then((found) => this.applyToDocuments(found, event));
        if (waiting !== undefined) return waiting.then(() => this.advance(envelope));
      }
    }
    this.advance(envelope);
    return undefined;
  }

  private advance(envelope: EventEnvelope): void {
    const { streamId, revision, workspaceId } = envelope.metadata;
    this.streams.advance(streamId, revision, workspaceId);
    this.result.applied += 1;
  }

  private applyToDocuments(ids: readonly string[], event: KnownEvent): Promise<void> | undefined {
    const unique = ids.length < 2 ? ids : [...new Set(ids)];
    for (let i = 0; i < unique.length; i += 1) {
      const slot = this.workingSet.cachedSlot(unique[i]);
      if (slot === undefined) return this.loadAndApply(unique.slice(i), event);
      this.applyToDocument(slot, event);
    }
    return undefined;
  }

  private async loadAndApply(ids: readonly string[], event: KnownEvent): Promise<void> {
    for (const id of ids) this.applyToDocument(await this.workingSet.slot(id), event);
  }

  private applyToDocument(slot: DocumentSlot, event: KnownEvent): void {
    const current = slot.document;
    if (current !== undefined && revisionIn(slot.streams, event.metadata.streamId) >= event.metadata.revision) {
      slot.reemit = true;
      return;
    }
    if (current !== undefined && current.workspaceId !== event.metadata.workspaceId) {
      // A stream of one workspace naming a document of another (a forged task id): tenancy
      // wins, the document is not touched.
      this.logger.warn(
        {
          documentId: slot.id,
          documentWorkspaceId: current.workspaceId,
          eventWorkspaceId: event.metadata.workspaceId,
          streamId: event.metadata.streamId,
          revision: event.metadata.revision,
          eventType: event.type,
        },
        'event of another workspace ignored',
      );
      return;
    }
    slot.document = evolveFields(this.definition, current, slot.id, event);
    slot.streams[streamKey(event.metadata.streamId)] = event.metadata.revision;
    this.workingSet.markDirty(slot);
    if (this.mode === 'live') slot.applied.push(event);
  }

  /** Compare-and-set per document; on a conflict, re-read and replay this batch's events on it. */
  private async writeLive(slots: readonly DocumentSlot[]): Promise<ChangeNotice[]> {
    const dirty = slots.filter((slot) => slot.dirty);
    const { documents } = this.deps;
    if (dirty.length > 1) {
      // One commit for the batch where the store can (SQLite); each write keeps its own
      // compare-and-set, and a conflicted one goes the one-by-one way below.
      const outcomes = await documents.upsertMany(
        this.collection,
        dirty.map((slot) => ({ document: documentOf(slot) as ProjectionDocument, expectedVersion: slot.version })),
      );
      for (let i = 0; i < dirty.length; i += 1) {
        const outcome = outcomes[i];
        if (outcome.ok) dirty[i].version = outcome.result.version;
        else if (!(outcome.error instanceof DocumentConflictError)) throw outcome.error;
        else if (await this.replayAfterConflict(dirty[i])) await this.writeWithRetry(dirty[i], 2);
      }
    } else for (const slot of dirty) await this.writeWithRetry(slot);
    const notices: ChangeNotice[] = [];
    for (const slot of slots) {
      const document = documentOf(slot);
      if (document !== undefined) notices.push(this.noticeFor(document));
    }
    return notices;
  }

  private async writeWithRetry(slot: DocumentSlot, firstAttempt = 1): Promise<void> {
    for (let attempt = firstAttempt; attempt <= MAX_WRITE_ATTEMPTS; attempt += 1) {
      try {
        const written = await this.deps.documents.upsert(this.collection, documentOf(slot) as ProjectionDocument, {
          expectedVersion: slot.version,
        });
        slot.version = written.version;
        return;
      } catch (error) {
        if (!(error instanceof DocumentConflictError)) throw error;
        // The other writer applied everything this batch had: nothing is left to write.
        if (!(await this.replayAfterConflict(slot))) return;
      }
    }
    throw new ProjectionWriteConflictError(this.collection, slot.id, MAX_WRITE_ATTEMPTS);
  }

  /** Re-reads a document another writer changed and replays this batch's events on it; false = nothing left to write. */
  private async replayAfterConflict(slot: DocumentSlot): Promise<boolean> {
    this.result.conflicts += 1;
    const stored = await this.deps.documents.get<ProjectionDocument>(this.collection, slot.id);
    slot.version = stored?._version ?? 0;
    let replayed = stored === undefined ? undefined : withoutVersion(stored);
    let changed = false;
    for (const event of slot.applied) {
      const { streamId, revision } = event.metadata;
      if (replayed !== undefined && revisionIn(replayed._streams, streamId) >= revision) continue;
      replayed = evolveDocument(this.definition, replayed, slot.id, event);
      changed = true;
    }
    slot.document = replayed;
    slot.streams = { ...replayed?._streams };
    return changed;
  }

  private noticeFor(document: ProjectionDocument): ChangeNotice {
    return {
      projection: this.definition.name,
      collection: this.collection,
      documentId: document._id,
      workspaceId: document.workspaceId,
      streams: decodeRevisions(document._streams),
    };
  }
}

const emptyResult = (): BatchResult => ({ applied: 0, duplicates: 0, gapFilled: 0, conflicts: 0, notices: [] });
