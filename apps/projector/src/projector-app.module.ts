import { type DynamicModule, Module } from '@nestjs/common';
import type { LomoConfig } from '@lomo/config';
import { PlatformModule, type PlatformOptions } from '@lomo/platform';
import { ProjectorModule, type ProjectorModuleOptions } from '@lomo/application';

/** The projector as a process of its own (distributed mode): the platform plus the projector. */
@Module({})
export class ProjectorAppModule {
  static register(
    config: LomoConfig,
    options: PlatformOptions & { projector?: ProjectorModuleOptions } = {},
  ): DynamicModule {
    return {
      module: ProjectorAppModule,
      imports: [PlatformModule.forRoot(config, options), ProjectorModule.register(config, options.projector)],
    };
  }
}
