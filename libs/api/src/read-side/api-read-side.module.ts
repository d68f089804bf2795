import {
  Inject,
  Injectable,
  Module,
  type DynamicModule,
  type OnApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import type { LomoConfig } from '@lomo/config';
import { LOGGER, type Logger } from '@lomo/observability';
import { HealthRegistry } from '@lomo/platform';
import {
  ProjectionAliases,
  ReadModelConsistency,
  ReadModels,
  readModelProjections,
  type DocumentStore,
  createDocumentStore,
  projectorSettings,
  READ_MODEL_CONSISTENCY,
  READ_MODELS,
  MEMORY_READ_MODEL,
  MemoryReadModel,
  memoryProjections,
} from '@lomo/read-models';
import { DocumentStoreWorkspaceReadModel, WORKSPACE_READ_MODEL, workspaceProjections } from '@lomo/workspace';
import { DocumentStoreGenerationReadModel, GENERATION_READ_MODEL, generationProjections } from '@lomo/generation';
import { CLOCK, type Clock } from '@lomo/contracts';

const API_DOCUMENT_STORE = Symbol('API_DOCUMENT_STORE');

@Injectable()
class ReadSideLifecycle implements OnModuleInit, OnApplicationShutdown {
  constructor(
    @Inject(API_DOCUMENT_STORE) private readonly documents: DocumentStore,
    private readonly health: HealthRegistry,
  ) {}

  /**
   * The API serves every query from this store, so it gates readiness. The projector's lag does
   * not: a lagging projector is the projector's trouble (its own /health/ready fails), and API
   * pods taken out of service for it would only turn stale answers into no answers.
   */
  onModuleInit(): void {
    const { documents } = this;
    this.health.register({
      name: 'readModels',
      check: async () => ({ collections: (await documents.listCollections()).length }),
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.documents.close();
  }
}

/**
 * The read side for an API process without a projector (distributed mode): the same document
 * store the projector writes, read through the projection aliases. Provides what ApiModule's
 * `readSide` needs.
 */
@Module({})
export class ApiReadSideModule {
  static register(config: LomoConfig): DynamicModule {
    const settings = projectorSettings(config);
    return {
      module: ApiReadSideModule,
      providers: [
        {
          provide: API_DOCUMENT_STORE,
          useFactory: (logger: Logger) => createDocumentStore(settings, logger),
          inject: [LOGGER],
        },
        {
          provide: ProjectionAliases,
          useFactory: (documents: DocumentStore) => new ProjectionAliases(documents),
          inject: [API_DOCUMENT_STORE],
        },
        {
          provide: READ_MODELS,
          useFactory: (documents: DocumentStore, aliases: ProjectionAliases) => new ReadModels(documents, aliases),
          inject: [API_DOCUMENT_STORE, ProjectionAliases],
        },
        {
          provide: READ_MODEL_CONSISTENCY,
          useFactory: (documents: DocumentStore, aliases: ProjectionAliases) =>
            new ReadModelConsistency(documents, aliases, [
              ...readModelProjections,
              ...workspaceProjections,
              ...generationProjections,
              ...memoryProjections,
            ]),
          inject: [API_DOCUMENT_STORE, ProjectionAliases],
        },
        {
          provide: WORKSPACE_READ_MODEL,
          useFactory: (documents: DocumentStore, aliases: ProjectionAliases) =>
            new DocumentStoreWorkspaceReadModel(documents, (name) => aliases.collectionOf(name)),
          inject: [API_DOCUMENT_STORE, ProjectionAliases],
        },
        {
          provide: GENERATION_READ_MODEL,
          useFactory: (documents: DocumentStore, aliases: ProjectionAliases, clock: Clock) =>
            new DocumentStoreGenerationReadModel(documents, (name) => aliases.collectionOf(name), clock),
          inject: [API_DOCUMENT_STORE, ProjectionAliases, CLOCK],
        },
        {
          provide: MEMORY_READ_MODEL,
          useFactory: (documents: DocumentStore, aliases: ProjectionAliases) =>
            new MemoryReadModel(documents, (name) => aliases.collectionOf(name)),
          inject: [API_DOCUMENT_STORE, ProjectionAliases],
        },
        ReadSideLifecycle,
      ],
      exports: [READ_MODELS, READ_MODEL_CONSISTENCY, WORKSPACE_READ_MODEL, GENERATION_READ_MODEL, MEMORY_READ_MODEL],
    };
  }
}
