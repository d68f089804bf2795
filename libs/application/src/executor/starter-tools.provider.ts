import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import type { BlobStore } from '@lomo/blobs';
import type { EventBus } from '@lomo/bus';
import type { LomoConfig } from '@lomo/config';
import type { Clock } from '@lomo/contracts';
import type { EventStore } from '@lomo/eventstore';
import type { Logger } from '@lomo/observability';
import {
  createStarterTools,
  ExportJobRunner,
  MongoExportJobStore,
  MongoNotesStore,
  SqliteExportJobStore,
  SqliteNotesStore,
  ToolRegistry,
  type ExportJobStore,
  type ExportSubmitter,
  type NotesStore,
  type ToolDecorator,
} from '@lomo/tools';
import { checkpointIdFor, createPlanTools, createResultTools } from '@lomo/runtime';
import { createMediaTools, type GenerationRequests } from '@lomo/generation';
import {
  createWorkspaceTools,
  type ArtifactCommands,
  type ArtifactReader,
  type WorkspaceReadModel,
} from '@lomo/workspace';

/** The workspace's ports, when the app binds them (ARTIFACT_COMMANDS, ARTIFACT_READER, WORKSPACE_READ_MODEL). */
export interface WorkspacePorts {
  commands?: ArtifactCommands;
  reader?: ArtifactReader;
  readModel?: WorkspaceReadModel;
}

/** The starter tools and what they stand on; the executor owns their lifecycle in embedded mode. */
export interface StarterTools {
  registry: ToolRegistry;
  exports: ExportJobRunner;
  close(): Promise<void>;
}

/** What the starter tools run on; only their runs use it, their definitions never do. */
export interface StarterToolServices {
  notes: NotesStore;
  store: EventStore;
  blobs: BlobStore;
  exports: ExportSubmitter;
  workspace: WorkspacePorts;
  generation?: GenerationRequests;
}

/** The executor's tools, in the order the model is offered them, on the given services. */
export function starterToolRegistry(services: StarterToolServices, decorate?: ToolDecorator): ToolRegistry {
  const { notes, store, blobs, exports } = services;
  const registry = new ToolRegistry(createStarterTools({ notes, history: store, exports, decorate }));
  // The brief and the checklist the runtime's continuation decision reads.
  for (const tool of createPlanTools({ store, ids: { uuid: () => randomUUID() } }))
    registry.register(decorate ? decorate(tool, {}) : tool);
  // Large results are stored and summarized in the context; result.read brings them back page by page.
  for (const tool of createResultTools({ events: store, blobs }))
    registry.register(decorate ? decorate(tool, {}) : tool);
  // The document, flow and asset tools only where the workspace is bound: without its ports
  // they could only fail, and a model offered tools that always fail wastes its steps.
  const { commands, reader, readModel } = services.workspace;
  if (commands !== undefined && reader !== undefined && readModel !== undefined) {
    const tools = createWorkspaceTools({ commands, reader, readModel, checkpointIdFor });
    for (const tool of tools) registry.register(decorate ? decorate(tool, {}) : tool);
  }
  // The media tools where the generation service's orders are bound (GenerationOrdersModule).
  if (services.generation !== undefined) {
    for (const tool of createMediaTools(services.generation)) registry.register(decorate ? decorate(tool, {}) : tool);
  }
  return registry;
}

class ToolSpecOnlyError extends Error {
  readonly code = 'TOOL_SPEC_ONLY';
  readonly retriable = false;
  constructor(what: string) {
    super(`${what} is not bound: these tools are definitions only (a replay reads their specs)`);
  }
}

/** A service every call of which is refused: the definitions of a tool never call it. */
const unbound = <T extends object>(what: string): T =>
  new Proxy({} as T, {
    // `then` undefined: the proxy is no promise to whoever awaits it.
    get: (_target, key) => (key === 'then' ? undefined : () => Promise.reject(new ToolSpecOnlyError(what))),
  });

/**
 * The executor's tools as the model is offered them (names, descriptions, schemas, domains), with
 * no service behind them: what a replay rebuilds prompts with, outside the executor. The same
 * registry code as `createStarterToolSet`, so the definitions cannot drift from the executor's;
 * `generation` as the executor binds it (LOMO_GENERATION=on); the workspace tools always are.
 */
export function starterToolSpecs(bound: { generation: boolean }): ToolRegistry {
  return starterToolRegistry({
    notes: unbound<NotesStore>('the notes store'),
    store: unbound<EventStore>('the event store'),
    blobs: unbound<BlobStore>('the blob store'),
    exports: unbound<ExportSubmitter>('the export runner'),
    workspace: {
      commands: unbound<ArtifactCommands>('the workspace'),
      reader: unbound<ArtifactReader>('the workspace'),
      readModel: unbound<WorkspaceReadModel>('the workspace read model'),
    },
    ...(bound.generation ? { generation: unbound<GenerationRequests>('the generation service') } : {}),
  });
}

export function createStarterToolSet(
  config: LomoConfig,
  store: EventStore,
  bus: EventBus,
  blobs: BlobStore,
  clock: Clock,
  logger: Logger,
  decorate?: ToolDecorator,
  workspace: WorkspacePorts = {},
  generation?: GenerationRequests,
): StarterTools {
  // LOMO_TOOLS_STORE (libs/config/src/load-config.ts): MongoDB when executors share no disk.
  let client: MongoClient | undefined;
  let notes: NotesStore;
  let jobs: ExportJobStore;
  if (config.LOMO_TOOLS_STORE === 'mongodb') {
    client = new MongoClient(config.MONGODB_URL ?? '', { serverSelectionTimeoutMS: 5_000 });
    const db = client.db(config.MONGODB_DATABASE);
    notes = new MongoNotesStore({ db });
    jobs = new MongoExportJobStore({ db });
    logger.info(
      { component: 'executor', toolsStore: 'mongodb', database: config.MONGODB_DATABASE },
      'tool state on MongoDB',
    );
  } else {
    const filename = join(config.LOMO_DATA_DIR, 'tools.sqlite');
    notes = SqliteNotesStore.open({ filename, synchronous: config.LOMO_SQLITE_SYNCHRONOUS });
    jobs = SqliteExportJobStore.open({ filename, synchronous: config.LOMO_SQLITE_SYNCHRONOUS });
  }
  const exports = new ExportJobRunner({
    jobs,
    events: store,
    blobs,
    bus,
    clock,
    onError: (error, jobId) =>
      logger.warn(
        { jobId, error: error instanceof Error ? error.message : String(error) },
        'export job attempt failed',
      ),
  });
  const registry = starterToolRegistry({ notes, store, blobs, exports, workspace, generation }, decorate);
  return {
    registry,
    exports,
    close: async () => {
      await exports.stop();
      await jobs.close();
      await notes.close();
      await client?.close();
    },
  };
}
