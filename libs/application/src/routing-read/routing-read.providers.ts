import type { Provider } from '@nestjs/common';
import { LOMO_CONFIG, type LomoConfig } from '@lomo/config';
import { createEmbeddingProvider, EMBEDDING_PROVIDER, type EmbeddingProvider } from '@lomo/llm';
import { LOGGER, type Logger } from '@lomo/observability';
import { createDocumentStore, ProjectionAliases, projectorSettings, type DocumentStore } from '@lomo/read-models';
import {
  ARTIFACT_BINDINGS,
  createSearchIndex,
  DocumentStoreRoutingIndex,
  ROUTING_INDEX_PROJECTION,
  ROUTING_INDEX,
  SEARCH_INDEX,
} from '@lomo/routing';
import { DocumentStoreWorkspaceReadModel, ProjectedArtifactBindings, WORKSPACE_READ_MODEL } from '@lomo/workspace';

/** The embedder routing and memory recall use, from LOMO_EMBEDDING_* (hashing by default; openai with an endpoint; onnx local models). */
export function embeddingProviderFrom(c: LomoConfig): EmbeddingProvider {
  return createEmbeddingProvider({
    provider: c.LOMO_EMBEDDING_PROVIDER,
    modelProvider: c.LOMO_MODEL_PROVIDER,
    baseUrl: c.LOMO_EMBEDDING_BASE_URL ?? c.OPENAI_BASE_URL,
    apiKey: c.OPENAI_API_KEY,
    model: c.LOMO_EMBEDDING_MODEL,
    dimensions: c.LOMO_EMBEDDING_DIMENSIONS,
    modelDirectory: c.LOMO_EMBEDDING_MODEL_DIR,
    onnxModel: c.LOMO_EMBEDDING_ONNX_MODEL,
  });
}

export const embeddingProvider: Provider = {
  provide: EMBEDDING_PROVIDER,
  useFactory: embeddingProviderFrom,
  inject: [LOMO_CONFIG],
};

export const searchIndexProvider: Provider = {
  provide: SEARCH_INDEX,
  useFactory: (config: LomoConfig, embedder: EmbeddingProvider) => {
    const settings = projectorSettings(config);
    return createSearchIndex({
      mongodbUrl: settings.mongodbUrl,
      mongodbDatabase: settings.mongodbDatabase,
      sqlitePath: settings.sqlitePath,
      dimensions: embedder.dimensions,
    });
  },
  inject: [LOMO_CONFIG, EMBEDDING_PROVIDER],
};

const ROUTER_DOCUMENTS = Symbol('ROUTER_DOCUMENTS');

/**
 * What a router process without a projector reads for routing: the routing index (the
 * projector's `routing_index`, through its alias), the artefact bindings (the projector's
 * workspace collections, through their aliases), the search index and the embedder.
 */
export const routerReadSideProviders: Provider[] = [
  embeddingProvider,
  searchIndexProvider,
  {
    provide: ROUTER_DOCUMENTS,
    useFactory: (config: LomoConfig, logger: Logger) => createDocumentStore(projectorSettings(config), logger),
    inject: [LOMO_CONFIG, LOGGER],
  },
  {
    provide: ROUTING_INDEX,
    useFactory: (documents: DocumentStore) => {
      const aliases = new ProjectionAliases(documents);
      return new DocumentStoreRoutingIndex(documents, () => aliases.collectionOf(ROUTING_INDEX_PROJECTION));
    },
    inject: [ROUTER_DOCUMENTS],
  },
  {
    provide: WORKSPACE_READ_MODEL,
    useFactory: (documents: DocumentStore) => {
      const aliases = new ProjectionAliases(documents);
      return new DocumentStoreWorkspaceReadModel(documents, (name) => aliases.collectionOf(name));
    },
    inject: [ROUTER_DOCUMENTS],
  },
  {
    provide: ARTIFACT_BINDINGS,
    useFactory: (workspace: DocumentStoreWorkspaceReadModel) => new ProjectedArtifactBindings(workspace),
    inject: [WORKSPACE_READ_MODEL],
  },
];
