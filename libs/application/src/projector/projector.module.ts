import { type DynamicModule, Module } from '@nestjs/common';
import { EVENT_BUS, type EventBus } from '@lomo/bus';
import { LOMO_CONFIG, type LomoConfig } from '@lomo/config';
import { EVENT_STORE, type EventStore } from '@lomo/eventstore';
import { LOGGER, METRICS, type Logger, type Metrics } from '@lomo/observability';
import {
  DOCUMENT_STORE,
  ProjectionRunner,
  ReadModelConsistency,
  ReadModels,
  type ChangeNoticeSink,
  type AnyProjection,
  type DocumentStore,
  createDocumentStore,
  projectorSettings,
  type ProjectorSettings,
  PROJECTION_FEED,
  PROJECTION_RUNNER,
  PROJECTOR_HEALTH_CHECK,
  PROJECTOR_SETTINGS,
  READ_MODEL_CONSISTENCY,
  READ_MODELS,
  MEMORY_READ_MODEL,
  MemoryReadModel,
} from '@lomo/read-models';
import { EMBEDDING_PROVIDER, type EmbeddingProvider } from '@lomo/llm';
import { DocumentStoreGenerationReadModel, GENERATION_READ_MODEL } from '@lomo/generation';
import { CLOCK, type Clock } from '@lomo/contracts';
import {
  ARTIFACT_BINDINGS,
  DocumentStoreRoutingIndex,
  ROUTING_INDEX,
  ROUTING_INDEX_PROJECTION,
  SEARCH_INDEX,
  SearchIndexFeeder,
  type SearchIndex,
} from '@lomo/routing';
import {
  DocumentStoreWorkspaceReadModel,
  EventStoreTaskNoticeWriter,
  NoticeFanout,
  NoticeFanoutSink,
  ProjectedArtifactBindings,
  WORKSPACE_READ_MODEL,
} from '@lomo/workspace';
import { BusChangeNoticeSink } from './bus-change-notices';
import { BusProjectionFeed, StoreProjectionFeed, type ProjectionFeed } from './projection-feeds';
import { projectorHealthCheck, ProjectorHealthRegistration } from './projector-health';
import { rebuildExecutorOf } from './rebuild-threads';
import { CHANGE_NOTICE_SINK, ProjectorService } from './projector.service';
import { projectorProjections } from './projector-projections';
import { SEARCH_INDEX_FEEDER, SearchIndexSync } from './search-index-sync.service';
import { embeddingProvider, searchIndexProvider } from '../routing-read/routing-read.providers';

export interface ProjectorModuleOptions {
  settings?: Partial<ProjectorSettings>;
  /** Tests and later issues pass their own set; default: the first slice. */
  projections?: readonly AnyProjection[];
}

/**
 * The projector app: read-model document store, projection runner, its feed (bus or store), change
 * notices on `lomo.changes`, lag gauges on the platform's /metrics and its check on /health.
 * Needs the platform's EVENT_STORE, EVENT_BUS, LOGGER, METRICS and LOMO_CONFIG.
 */

@Module({})
export class ProjectorModule {
  static register(config: LomoConfig, options: ProjectorModuleOptions = {}): DynamicModule {
    const settings: ProjectorSettings = { ...projectorSettings(config), ...options.settings };
    const projections = options.projections ?? projectorProjections;
    return {
      module: ProjectorModule,
      providers: [
        { provide: PROJECTOR_SETTINGS, useValue: settings },
        {
          provide: DOCUMENT_STORE,
          useFactory: (logger: Logger) => createDocumentStore(settings, logger),
          inject: [LOGGER],
        },
        {
          provide: CHANGE_NOTICE_SINK,
          useFactory: (bus: EventBus, lomo: LomoConfig) => new BusChangeNoticeSink(bus, lomo.LOMO_BUS_PARTITIONS),
          inject: [EVENT_BUS, LOMO_CONFIG],
        },
        {
          provide: PROJECTION_RUNNER,
          useFactory: (
            documents: DocumentStore,
            events: EventStore,
            feeder: SearchIndexFeeder,
            logger: Logger,
            metrics: Metrics,
          ) => {
            // The fan-out reads through the runner's aliases, which exist once the runner does.
            const holder: { runner?: ProjectionRunner } = {};
            const aliases = {
              collectionOf: (name: string) => holder.runner?.aliases.collectionOf(name) ?? Promise.resolve(undefined),
            };
            holder.runner = new ProjectionRunner({
              documents,
              events,
              projections,
              // The change-notice fan-out and the SearchIndex are fed in the notice path (see
              // NoticeFanoutSink, SearchIndexFeeder), then the notices go on to the bus;
              // SearchIndexSync refills the search index after a rebuild.
              notices: new NoticeFanoutSink(
                new NoticeFanout({
                  documents,
                  workspace: new DocumentStoreWorkspaceReadModel(documents, (name) => aliases.collectionOf(name)),
                  writer: new EventStoreTaskNoticeWriter(events),
                  logger,
                }),
                feeder,
              ),
              logger,
              metrics,
              maxLagSeconds: settings.maxLagSeconds,
              rebuildExecutor: rebuildExecutorOf(settings, config),
            });
            return holder.runner;
          },
          inject: [DOCUMENT_STORE, EVENT_STORE, SEARCH_INDEX_FEEDER, LOGGER, METRICS],
        },
        {
          provide: PROJECTION_FEED,
          useFactory: (
            runner: ProjectionRunner,
            bus: EventBus,
            events: EventStore,
            lomo: LomoConfig,
            logger: Logger,
          ): ProjectionFeed =>
            settings.feed === 'store'
              ? new StoreProjectionFeed({ events, runner, projections, logger })
              : new BusProjectionFeed({
                  bus,
                  runner,
                  projections,
                  partitions: lomo.LOMO_BUS_PARTITIONS,
                  maxAttempts: lomo.LOMO_BUS_MAX_ATTEMPTS,
                  logger,
                }),
          inject: [PROJECTION_RUNNER, EVENT_BUS, EVENT_STORE, LOMO_CONFIG, LOGGER],
        },
        { provide: PROJECTOR_HEALTH_CHECK, useFactory: projectorHealthCheck, inject: [PROJECTION_RUNNER] },
        {
          provide: READ_MODELS,
          useFactory: (documents: DocumentStore, runner: ProjectionRunner) => new ReadModels(documents, runner.aliases),
          inject: [DOCUMENT_STORE, PROJECTION_RUNNER],
        },
        {
          provide: READ_MODEL_CONSISTENCY,
          useFactory: (documents: DocumentStore, runner: ProjectionRunner) =>
            new ReadModelConsistency(documents, runner.aliases, projections, runner),
          inject: [DOCUMENT_STORE, PROJECTION_RUNNER],
        },
        {
          provide: ROUTING_INDEX,
          useFactory: (documents: DocumentStore, runner: ProjectionRunner) =>
            new DocumentStoreRoutingIndex(documents, () => runner.aliases.collectionOf(ROUTING_INDEX_PROJECTION)),
          inject: [DOCUMENT_STORE, PROJECTION_RUNNER],
        },
        {
          provide: WORKSPACE_READ_MODEL,
          useFactory: (documents: DocumentStore, runner: ProjectionRunner) =>
            new DocumentStoreWorkspaceReadModel(documents, (name) => runner.aliases.collectionOf(name)),
          inject: [DOCUMENT_STORE, PROJECTION_RUNNER],
        },
        {
          provide: GENERATION_READ_MODEL,
          useFactory: (documents: DocumentStore, runner: ProjectionRunner, clock: Clock) =>
            new DocumentStoreGenerationReadModel(documents, (name) => runner.aliases.collectionOf(name), clock),
          inject: [DOCUMENT_STORE, PROJECTION_RUNNER, CLOCK],
        },
        {
          provide: MEMORY_READ_MODEL,
          useFactory: (documents: DocumentStore, runner: ProjectionRunner) =>
            new MemoryReadModel(documents, (name) => runner.aliases.collectionOf(name)),
          inject: [DOCUMENT_STORE, PROJECTION_RUNNER],
        },
        {
          provide: ARTIFACT_BINDINGS,
          useFactory: (workspace: DocumentStoreWorkspaceReadModel) => new ProjectedArtifactBindings(workspace),
          inject: [WORKSPACE_READ_MODEL],
        },
        embeddingProvider,
        searchIndexProvider,
        {
          provide: SEARCH_INDEX_FEEDER,
          useFactory: (
            documents: DocumentStore,
            next: ChangeNoticeSink,
            search: SearchIndex,
            embedder: EmbeddingProvider,
          ) => new SearchIndexFeeder({ documents, search, embedder, next }),
          inject: [DOCUMENT_STORE, CHANGE_NOTICE_SINK, SEARCH_INDEX, EMBEDDING_PROVIDER],
        },
        SearchIndexSync,
        ProjectorService,
        ProjectorHealthRegistration,
      ],
      exports: [
        DOCUMENT_STORE,
        PROJECTION_RUNNER,
        PROJECTOR_HEALTH_CHECK,
        READ_MODELS,
        READ_MODEL_CONSISTENCY,
        ROUTING_INDEX,
        SEARCH_INDEX,
        EMBEDDING_PROVIDER,
        WORKSPACE_READ_MODEL,
        GENERATION_READ_MODEL,
        MEMORY_READ_MODEL,
        ARTIFACT_BINDINGS,
      ],
    };
  }
}
