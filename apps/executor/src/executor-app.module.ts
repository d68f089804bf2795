import { type DynamicModule, Module } from '@nestjs/common';
import type { LomoConfig } from '@lomo/config';
import { PlatformModule, type PlatformOptions } from '@lomo/platform';
import {
  ExecutorModule,
  WorkspaceModule,
  WorkspaceReadSideModule,
  GenerationOrdersModule,
  type ExecutorModuleOptions,
  MemoryWorkerModule,
} from '@lomo/application';

/** The executor as a process of its own (distributed mode): the platform plus the runtime. */
@Module({})
export class ExecutorAppModule {
  static register(
    config: LomoConfig,
    options: PlatformOptions & { executor?: ExecutorModuleOptions } = {},
  ): DynamicModule {
    return {
      module: ExecutorAppModule,
      imports: [
        PlatformModule.forRoot(config, options),
        // The workspace tools: artefact writes here, reads from the projector's collections.
        WorkspaceModule.register(),
        // The media tools: they order jobs; apps/generation runs them.
        ...(config.LOMO_GENERATION === 'on' ? [GenerationOrdersModule.register(config)] : []),
        // Memory runs beside the steps that recall it (its recall index is this process's).
        MemoryWorkerModule.register(),
        ExecutorModule.register({ workspace: WorkspaceReadSideModule.register(config), ...options.executor }),
      ],
    };
  }
}
