import { Inject, Injectable, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { BLOB_STORE, SqliteBlobStore, type BlobStore } from '@lomo/blobs';
import { LOMO_CONFIG, type LomoConfig } from '@lomo/config';
import { ID_GENERATOR, type IdGenerator } from '@lomo/contracts';
import { EVENT_STORE, type EventStore } from '@lomo/eventstore';
import { ARTIFACT_COMMANDS, ARTIFACT_READER, ArtifactCommandService, DocumentTextStore } from '@lomo/workspace';

/** The BlobStore that holds document text (snapshots and patches). */
export const WORKSPACE_TEXT_BLOBS = Symbol('WORKSPACE_TEXT_BLOBS');

export interface WorkspaceModuleOptions {
  /** Tests pass their own; otherwise chosen by configuration (see `textBlobsFrom`). */
  textBlobs?: BlobStore;
}

/**
 * Where document text lives. On the SQLite event store: a `blobs` table inside the event-store
 * file, written with synchronous=NORMAL, because its rows are referenced only by events appended
 * after them on the same WAL, whose commit (FULL by default) makes them durable too: one fsync
 * per edit instead of a file and an fsync per patch (libs/workspace/README.md has the figures).
 * Elsewhere (EventStoreDB): the platform's BlobStore (GridFS or files).
 */
export function textBlobsFrom(config: LomoConfig, platformBlobs: BlobStore): BlobStore {
  if (config.LOMO_EVENTSTORE !== 'sqlite') return platformBlobs;
  return new SqliteBlobStore({ filename: config.LOMO_SQLITE_PATH, synchronous: 'NORMAL' });
}

@Injectable()
class WorkspaceTextBlobsLifecycle implements OnApplicationShutdown {
  constructor(@Inject(WORKSPACE_TEXT_BLOBS) private readonly blobs: BlobStore) {}

  onApplicationShutdown(): void {
    if (this.blobs instanceof SqliteBlobStore) this.blobs.close();
  }
}

/**
 * The shared workspace's write side: ARTIFACT_COMMANDS and ARTIFACT_READER (one
 * ArtifactCommandService, which keeps artefact streams folded between edits). Global, like the
 * platform, so the API, the tools and the executor inject the same instance (one cache per
 * process). Stands on PlatformModule's EVENT_STORE, BLOB_STORE (media), ID_GENERATOR, LOMO_CONFIG.
 */
@Module({})
export class WorkspaceModule {
  static register(options: WorkspaceModuleOptions = {}): DynamicModule {
    return {
      module: WorkspaceModule,
      global: true,
      providers: [
        {
          provide: WORKSPACE_TEXT_BLOBS,
          useFactory: (config: LomoConfig, blobs: BlobStore) => options.textBlobs ?? textBlobsFrom(config, blobs),
          inject: [LOMO_CONFIG, BLOB_STORE],
        },
        WorkspaceTextBlobsLifecycle,
        {
          provide: ArtifactCommandService,
          useFactory: (store: EventStore, texts: BlobStore, media: BlobStore, ids: IdGenerator) =>
            new ArtifactCommandService({ store, texts: new DocumentTextStore(texts), media, ids }),
          inject: [EVENT_STORE, WORKSPACE_TEXT_BLOBS, BLOB_STORE, ID_GENERATOR],
        },
        { provide: ARTIFACT_COMMANDS, useExisting: ArtifactCommandService },
        { provide: ARTIFACT_READER, useExisting: ArtifactCommandService },
      ],
      exports: [ARTIFACT_COMMANDS, ARTIFACT_READER, WORKSPACE_TEXT_BLOBS],
    };
  }
}
