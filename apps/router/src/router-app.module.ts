import { type DynamicModule, Module } from '@nestjs/common';
import type { LomoConfig } from '@lomo/config';
import { PlatformModule, type PlatformOptions } from '@lomo/platform';
import { RouterModule } from '@lomo/application';

/** The router as a process of its own (distributed mode). */
@Module({})
export class RouterAppModule {
  static register(config: LomoConfig, options: PlatformOptions = {}): DynamicModule {
    return { module: RouterAppModule, imports: [PlatformModule.forRoot(config, options), RouterModule.register()] };
  }
}
