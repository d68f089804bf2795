import { Module, type DynamicModule } from '@nestjs/common';
import type { LomoConfig } from '@lomo/config';
import { PlatformModule, type PlatformOptions } from '@lomo/platform';

/**
 * The relay as a process of its own (distributed mode): the platform alone, with LOMO_RELAY=on.
 * Run two replicas: one holds the relay lease and publishes, the other stands by.
 */
@Module({})
export class RelayAppModule {
  static register(config: LomoConfig, options: PlatformOptions = {}): DynamicModule {
    return { module: RelayAppModule, imports: [PlatformModule.forRoot(config, options)] };
  }
}
