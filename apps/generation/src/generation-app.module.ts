import { type DynamicModule, Module } from '@nestjs/common';
import type { LomoConfig } from '@lomo/config';
import { PlatformModule, type PlatformOptions } from '@lomo/platform';
import { GenerationModule, WorkspaceModule, type GenerationModuleOptions } from '@lomo/application';

/**
 * The generation service as a process of its own (distributed mode): the platform, the
 * workspace's write side (completed jobs create artefacts), and the generation module with its
 * bus consumer, pollers, sweep and the callback route `POST /callbacks/generation/:provider`.
 */
@Module({})
export class GenerationAppModule {
  static register(
    config: LomoConfig,
    options: PlatformOptions & { generation?: GenerationModuleOptions } = {},
  ): DynamicModule {
    return {
      module: GenerationAppModule,
      imports: [
        PlatformModule.forRoot(config, options),
        WorkspaceModule.register(),
        GenerationModule.register(config, options.generation),
      ],
    };
  }
}
