import { type DynamicModule, Module } from '@nestjs/common';
import type { LomoConfig } from '@lomo/config';
import { PlatformModule, type PlatformOptions } from '@lomo/platform';
import { NotifierModule } from '@lomo/webhooks';
import { ApiModule, ApiReadSideModule } from '@lomo/api';
import { WorkspaceModule } from '@lomo/application';

/**
 * The API as a process of its own (distributed mode): commands in (messages through ApiModule, task commands),
 * read models out through the document store the projector writes.
 */
@Module({})
export class ApiAppModule {
  static register(config: LomoConfig, options: PlatformOptions = {}): DynamicModule {
    return {
      module: ApiAppModule,
      imports: [
        PlatformModule.forRoot(config, options),
        // Global: ARTIFACT_COMMANDS / ARTIFACT_READER for the API's artefact mutations.
        WorkspaceModule.register(),
        // Webhook management only: the notifier process runs the delivery engine.
        ApiModule.register(config, {
          readSide: ApiReadSideModule.register(config),
          webhooks: NotifierModule.register(config, { engine: false }),
        }),
      ],
    };
  }
}
