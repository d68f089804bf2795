import { join } from 'node:path';
import type { EventEnvelope } from '@lomo/contracts';
import { type EventStore, SqliteEventStore } from '@lomo/eventstore';
import { silentLogger } from '@lomo/observability';
import {
  physicalCollection,
  ProjectionEngine,
  ProjectionRunner,
  readModelProjections,
  SqliteDocumentStore,
  TurnTaskLookup,
  type AnyProjection,
  type BatchResult,
  type ChangeNoticeSink,
  type DocumentStore,
  type ProjectionDocument,
} from '@lomo/read-models';
import { makeTempDir } from '@lomo/eventstore/testing';
import { scenarioClock } from './multi-task-scenario';

export interface EventStoreFixture {
  events: SqliteEventStore;
  dir: string;
  dispose(): Promise<void>;
}

/** A SQLite event store on a temp file, on the scenario's clock. */
export function openEventStore(): EventStoreFixture {
  const temp = makeTempDir('projections');
  const events = new SqliteEventStore({
    filename: join(temp.dir, 'events.sqlite'),
    now: scenarioClock(),
    pollIntervalMs: 10,
  });
  return {
    events,
    dir: temp.dir,
    dispose: async () => {
      await events.close();
      temp.remove();
    },
  };
}

export const memoryDocuments = (): SqliteDocumentStore => new SqliteDocumentStore({ filename: ':memory:' });

/** Every document of every projection, by logical name and id, without the store's `_version`. */
export type Snapshot = Record<string, Record<string, ProjectionDocument>>;

export async function snapshotOf(
  documents: DocumentStore,
  collections: ReadonlyArray<{ name: string; collection: string }>,
): Promise<Snapshot> {
  const snapshot: Snapshot = {};
  for (const { name, collection } of collections) {
    const byId: Record<string, ProjectionDocument> = {};
    let after: string | undefined;
    for (;;) {
      const page = await documents.find<ProjectionDocument>(collection, { limit: 500, after });
      for (const { _version: _ignored, ...document } of page.items) byId[document._id] = document as ProjectionDocument;
      if (!page.hasMore) break;
      after = page.endCursor;
    }
    snapshot[name] = byId;
  }
  return snapshot;
}

export const physicalOf = (projections: readonly AnyProjection[] = readModelProjections) =>
  projections.map((p) => ({ name: p.name, collection: physicalCollection(p) }));

/** A clean rebuild of every projection from the log, as a new projector does it. */
export async function cleanRebuild(events: EventStore, projections: readonly AnyProjection[] = readModelProjections) {
  const documents = memoryDocuments();
  const runner = new ProjectionRunner({ documents, events, projections, logger: silentLogger, dropRetiredAfterMs: 0 });
  await runner.start();
  await runner.ready();
  await runner.stop();
  return { documents, snapshot: await snapshotOf(documents, physicalOf(projections)) };
}

/** One projector instance in live mode: an engine per projection writing with compare-and-set. */
export class LiveInstance {
  readonly engines: ProjectionEngine[];
  readonly totals = { applied: 0, duplicates: 0, gapFilled: 0, conflicts: 0 };

  constructor(
    documents: DocumentStore,
    events: Pick<EventStore, 'readStream'>,
    notices?: ChangeNoticeSink,
    projections: readonly AnyProjection[] = readModelProjections,
  ) {
    const context = new TurnTaskLookup(events);
    this.engines = projections.map(
      (p) =>
        new ProjectionEngine(p, physicalCollection(p), 'live', {
          documents,
          events,
          context,
          logger: silentLogger,
          notices,
        }),
    );
  }

  async deliver(batch: readonly EventEnvelope[]): Promise<void> {
    for (const engine of this.engines) this.count(await engine.apply(batch));
  }

  private count(result: BatchResult): void {
    this.totals.applied += result.applied;
    this.totals.duplicates += result.duplicates;
    this.totals.gapFilled += result.gapFilled;
    this.totals.conflicts += result.conflicts;
  }
}
