import { type DynamicModule, Module } from '@nestjs/common';
import type { LomoConfig } from '@lomo/config';
import { PlatformModule, type PlatformOptions } from '@lomo/platform';
import { NotifierModule, type NotifierModuleOptions } from '@lomo/webhooks';

/** The notifier as a process of its own (distributed mode): the platform plus the notifier. */
@Module({})
export class NotifierAppModule {
  static register(
    config: LomoConfig,
    options: PlatformOptions & { notifier?: NotifierModuleOptions } = {},
  ): DynamicModule {
    return {
      module: NotifierAppModule,
      imports: [PlatformModule.forRoot(config, options), NotifierModule.register(config, options.notifier)],
    };
  }
}
