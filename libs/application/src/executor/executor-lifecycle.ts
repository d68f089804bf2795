import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { LOGGER, type Logger } from '@lomo/observability';
import type { ExecutorRuntime } from '@lomo/runtime';
import { EXECUTOR_RUNTIME, STARTER_TOOLS } from './executor-tokens';
import type { StarterTools } from './starter-tools.provider';

/**
 * Starts the runtime once the platform is up, and on shutdown releases every held lease while the
 * store and the bus are still open: Nest runs every onModuleDestroy before the platform's
 * beforeApplicationShutdown closes them.
 */
@Injectable()
export class ExecutorLifecycle implements OnApplicationBootstrap, OnModuleDestroy {
  constructor(
    @Inject(EXECUTOR_RUNTIME) private readonly runtime: ExecutorRuntime,
    @Inject(STARTER_TOOLS) private readonly tools: StarterTools,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const resumed = await this.tools.exports.start();
    await this.runtime.start();
    this.logger.info({ component: 'executor', resumedExports: resumed }, 'executor started');
  }

  async onModuleDestroy(): Promise<void> {
    await this.runtime.stop();
    await this.tools.close();
  }
}
