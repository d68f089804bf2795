import type { EventStore } from '@lomo/eventstore';
import { silentLogger } from '@lomo/observability';
import {
  physicalCollection,
  ProjectionEngine,
  SqliteDocumentStore,
  TurnTaskLookup,
  type ChangeNoticeSink,
  type DocumentStore,
} from '@lomo/read-models';
import { DocumentStoreWorkspaceReadModel } from '../projection/document-store-workspace-read-model';
import { workspaceProjections } from '../projection/workspace.projection';
import {
  EventStoreTaskNoticeWriter,
  NoticeFanout,
  NoticeFanoutSink,
  type TaskNoticeWriter,
} from '../notices/notice-fanout';

/** Physical collection of each workspace projection (no aliases: one version, never rebuilt here). */
export const workspaceCollectionOf = async (name: string): Promise<string | undefined> => {
  const definition = workspaceProjections.find((p) => p.name === name);
  return definition === undefined ? undefined : physicalCollection(definition);
};

export interface WorkspaceTestProjectorOptions {
  documents?: DocumentStore;
  /** Where notices are appended; default the task decider on the store. Null: no fan-out. */
  writer?: TaskNoticeWriter | null;
}

/**
 * The workspace projections in live mode, with the notice fan-out in their change-notice path
 * exactly as the projector wires it (NoticeFanoutSink), fed by `catchUp()` from the store in
 * batches, as the store feed does. Notices the fan-out appends are task events, so catchUp loops
 * until the store has nothing new.
 */
export class WorkspaceTestProjector {
  readonly documents: DocumentStore;
  readonly readModel: DocumentStoreWorkspaceReadModel;
  readonly fanout: NoticeFanout | undefined;
  private readonly engines: ProjectionEngine[];
  private position: string | undefined;

  constructor(
    private readonly events: EventStore,
    options: WorkspaceTestProjectorOptions = {},
  ) {
    this.documents = options.documents ?? new SqliteDocumentStore({ filename: ':memory:' });
    this.readModel = new DocumentStoreWorkspaceReadModel(this.documents, workspaceCollectionOf);
    const writer = options.writer === undefined ? new EventStoreTaskNoticeWriter(events) : options.writer;
    this.fanout =
      writer === null
        ? undefined
        : new NoticeFanout({ documents: this.documents, workspace: this.readModel, writer, logger: silentLogger });
    const notices: ChangeNoticeSink | undefined = this.fanout ? new NoticeFanoutSink(this.fanout) : undefined;
    const context = new TurnTaskLookup(events);
    this.engines = workspaceProjections.map(
      (p) =>
        new ProjectionEngine(p, physicalCollection(p), 'live', {
          documents: this.documents,
          events,
          context,
          logger: silentLogger,
          notices,
        }),
    );
  }

  /** Applies everything appended since the last call (and what the fan-out appended meanwhile). */
  async catchUp(batchSize = 100): Promise<void> {
    for (;;) {
      const batch = await this.events.readAll({ fromPosition: this.position ?? 'start', maxCount: batchSize });
      if (batch.length === 0) return;
      for (const engine of this.engines) await engine.apply(batch);
      this.position = batch.at(-1)!.metadata.globalPosition;
    }
  }

  close(): Promise<void> {
    return this.documents.close();
  }
}
