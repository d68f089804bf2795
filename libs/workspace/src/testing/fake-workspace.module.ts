import { Module, type DynamicModule } from '@nestjs/common';
import { BLOB_STORE, type BlobStore } from '@lomo/blobs';
import { EVENT_BUS, type EventBus } from '@lomo/bus';
import { CHANGES_TOPIC } from '@lomo/read-models';
import { LOGGER, type Logger } from '@lomo/observability';
import { ARTIFACT_COMMANDS, ARTIFACT_READER } from '../artifact-commands.port';
import { artifactChangeNotice } from '../artifact-change-notices';
import { WORKSPACE_READ_MODEL } from '../workspace-read.port';
import { FakeWorkspace } from './fake-workspace';

const FAKE_WORKSPACE = Symbol('FAKE_WORKSPACE');

/**
 * Binds the workspace's three ports to one FakeWorkspace, for apps started by tests (the
 * standalone entry under test/integration/api/support). Media bytes go to the app's BlobStore
 * and every change publishes the read-model change notice the real projection publishes, so the
 * API's /media routes and its artifactChanged subscription run their production paths.
 */
@Module({})
export class FakeWorkspaceModule {
  static register(): DynamicModule {
    return {
      module: FakeWorkspaceModule,
      providers: [
        {
          provide: FAKE_WORKSPACE,
          inject: [BLOB_STORE, EVENT_BUS, LOGGER],
          useFactory: (blobs: BlobStore, bus: EventBus, logger: Logger) =>
            new FakeWorkspace({
              putBlob: (bytes, contentType) => blobs.put(bytes, contentType),
              onChange: (workspaceId, artifactId, revision) => {
                const notice = artifactChangeNotice(workspaceId, artifactId, revision);
                void bus
                  .publish(CHANGES_TOPIC, [{ key: artifactId, value: notice }])
                  .catch((error: unknown) =>
                    logger.warn({ artifactId, error: String(error) }, 'fake workspace notice not published'),
                  );
              },
            }),
        },
        { provide: ARTIFACT_COMMANDS, useExisting: FAKE_WORKSPACE },
        { provide: ARTIFACT_READER, useExisting: FAKE_WORKSPACE },
        { provide: WORKSPACE_READ_MODEL, useExisting: FAKE_WORKSPACE },
      ],
      exports: [ARTIFACT_COMMANDS, ARTIFACT_READER, WORKSPACE_READ_MODEL],
    };
  }
}
