import * as path from 'node:path';
import { type DynamicModule, Module } from '@nestjs/common';
import { BLOB_STORE, type BlobStore } from '@lomo/blobs';
import { LOMO_CONFIG, type LomoConfig } from '@lomo/config';
import { CLOCK, ID_GENERATOR, TEST_CONTROL, type Clock, type IdGenerator, type TestControl } from '@lomo/contracts';
import { EVENT_STORE, type EventStore } from '@lomo/eventstore';
import { ConceptEmbeddingProvider, type EmbeddingProvider, type ModelProvider } from '@lomo/llm';
import {
  IndexedMemoryRecall,
  MemoryIndexCatalog,
  MemoryIndexer,
  MemoryProfileSnapshot,
  MemoryRunner,
  MemoryStreamCache,
  ModelMemoryExtractor,
  OfflineMemoryExtractor,
  type MemoryExtractor,
} from '@lomo/memory';
import { LOGGER, type Logger } from '@lomo/observability';
import { SqliteSearchIndex, type SearchIndex } from '@lomo/routing';
import { MEMORY_RECALL, PROFILE_SNAPSHOT } from '@lomo/runtime';
import { modelProviderFrom } from '../model-provider-from-config';
import { embeddingProviderFrom } from '../routing-read/routing-read.providers';
import { projectorSettings } from '@lomo/read-models';
import { MemoryWorkerService } from './memory-worker.service';
import { MEMORY_INDEXER, MEMORY_RUNNER, MEMORY_SEARCH } from './memory-worker.tokens';

const CATALOG = Symbol('MEMORY_CATALOG');
const EMBEDDER = Symbol('MEMORY_EMBEDDER');

export interface MemoryWorkerModuleOptions {
  /** Tests pass their own extractor; otherwise the offline rules, or the configured model's. */
  extractor?: MemoryExtractor;
  model?: ModelProvider;
}

/**
 * Memory in this process (article §7): the background worker (evidence, extraction, forgetting
 * cascade), the recall index it keeps, and, globally, MEMORY_RECALL and PROFILE_SNAPSHOT for the
 * executor's context builder. The offline default extracts by the documented rules
 * (libs/memory/README.md); a configured OpenAI-compatible model extracts with a structured answer.
 * The recall index is a SQLite file beside the read models (several processes may share it); the
 * metadata recall filters on is rebuilt from the memory streams when the process starts.
 */
@Module({})
export class MemoryWorkerModule {
  static register(options: MemoryWorkerModuleOptions = {}): DynamicModule {
    return {
      module: MemoryWorkerModule,
      global: true,
      providers: [
        { provide: CATALOG, useValue: new MemoryIndexCatalog() },
        {
          // A configured semantic embedder (an OpenAI-compatible endpoint, or the local ONNX models
          // with LOMO_EMBEDDING_PROVIDER=onnx) when there is one; else
          // the local concept embedder (bench/memory/README.md says what it can and cannot do).
          provide: EMBEDDER,
          useFactory: (config: LomoConfig): EmbeddingProvider => {
            const configured = embeddingProviderFrom(config);
            return configured.kind === 'semantic' ? configured : new ConceptEmbeddingProvider();
          },
          inject: [LOMO_CONFIG],
        },
        {
          provide: MEMORY_SEARCH,
          useFactory: (config: LomoConfig, embedder: EmbeddingProvider): SearchIndex => {
            const file = path.join(path.dirname(projectorSettings(config).sqlitePath), 'memory-search.sqlite');
            return new SqliteSearchIndex({ database: file, dimensions: embedder.dimensions, tablePrefix: 'memory' });
          },
          inject: [LOMO_CONFIG, EMBEDDER],
        },
        {
          provide: MEMORY_INDEXER,
          useFactory: (
            index: SearchIndex,
            embedder: EmbeddingProvider,
            blobs: BlobStore,
            catalog: MemoryIndexCatalog,
            clock: Clock,
          ) => new MemoryIndexer({ index, embedder, blobs, catalog, clock }),
          inject: [MEMORY_SEARCH, EMBEDDER, BLOB_STORE, CATALOG, CLOCK],
        },
        {
          provide: MEMORY_RECALL,
          useFactory: (
            index: SearchIndex,
            embedder: EmbeddingProvider,
            blobs: BlobStore,
            catalog: MemoryIndexCatalog,
            clock: Clock,
          ) => new IndexedMemoryRecall({ index, embedder, blobs, catalog, clock }),
          inject: [MEMORY_SEARCH, EMBEDDER, BLOB_STORE, CATALOG, CLOCK],
        },
        {
          provide: PROFILE_SNAPSHOT,
          useFactory: (store: EventStore, blobs: BlobStore) =>
            new MemoryProfileSnapshot({ memory: new MemoryStreamCache(store), blobs }),
          inject: [EVENT_STORE, BLOB_STORE],
        },
        {
          provide: MEMORY_RUNNER,
          useFactory: (
            config: LomoConfig,
            store: EventStore,
            blobs: BlobStore,
            indexer: MemoryIndexer,
            clock: Clock,
            ids: IdGenerator,
            logger: Logger,
            testControl?: TestControl,
          ) => {
            const extractor =
              options.extractor ??
              (config.LOMO_MODEL_PROVIDER === 'openai'
                ? new ModelMemoryExtractor(options.model ?? modelProviderFrom(config))
                : new OfflineMemoryExtractor());
            return new MemoryRunner({
              store,
              blobs,
              extractor,
              indexer,
              clock,
              ids,
              logger: logger.child({ component: 'memory' }),
              // Drills' mutation switches (all off unless LOMO_TEST_CONTROL=on).
              ...(testControl !== undefined ? { testControl } : {}),
            });
          },
          inject: [
            LOMO_CONFIG,
            EVENT_STORE,
            BLOB_STORE,
            MEMORY_INDEXER,
            CLOCK,
            ID_GENERATOR,
            LOGGER,
            { token: TEST_CONTROL, optional: true },
          ],
        },
        MemoryWorkerService,
      ],
      exports: [MEMORY_RECALL, PROFILE_SNAPSHOT, MEMORY_RUNNER, MEMORY_INDEXER, MemoryWorkerService],
    };
  }
}
