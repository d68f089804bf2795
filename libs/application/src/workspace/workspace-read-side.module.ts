import { Inject, Injectable, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import type { LomoConfig } from '@lomo/config';
import { LOGGER, type Logger } from '@lomo/observability';
import { createDocumentStore, ProjectionAliases, projectorSettings, type DocumentStore } from '@lomo/read-models';
import { DocumentStoreWorkspaceReadModel, WORKSPACE_READ_MODEL } from '@lomo/workspace';

const WORKSPACE_DOCUMENTS = Symbol('WORKSPACE_DOCUMENTS');

@Injectable()
class WorkspaceDocumentsLifecycle implements OnApplicationShutdown {
  constructor(@Inject(WORKSPACE_DOCUMENTS) private readonly documents: DocumentStore) {}

  async onApplicationShutdown(): Promise<void> {
    await this.documents.close();
  }
}

/**
 * WORKSPACE_READ_MODEL for a process with no projector of its own (a distributed executor): the
 * projector's workspace collections, read through its aliases from the same document store.
 */
@Module({})
export class WorkspaceReadSideModule {
  static register(config: LomoConfig): DynamicModule {
    return {
      module: WorkspaceReadSideModule,
      providers: [
        {
          provide: WORKSPACE_DOCUMENTS,
          useFactory: (logger: Logger) => createDocumentStore(projectorSettings(config), logger),
          inject: [LOGGER],
        },
        WorkspaceDocumentsLifecycle,
        {
          provide: WORKSPACE_READ_MODEL,
          useFactory: (documents: DocumentStore) => {
            const aliases = new ProjectionAliases(documents);
            return new DocumentStoreWorkspaceReadModel(documents, (name) => aliases.collectionOf(name));
          },
          inject: [WORKSPACE_DOCUMENTS],
        },
      ],
      exports: [WORKSPACE_READ_MODEL],
    };
  }

  /** In a process with a projector (the embedded standalone): its read model, re-exported. */
  static from(readSide: DynamicModule): DynamicModule {
    return { module: WorkspaceReadSideModule, imports: [readSide], exports: [readSide] };
  }
}
