import { join } from 'node:path';
import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { LOMO_CONFIG, type LomoConfig } from '@lomo/config';
import { CLOCK, ID_GENERATOR, type Clock, type IdGenerator } from '@lomo/contracts';
import { LOGGER, type Logger } from '@lomo/observability';
import { PersistedWorkerId } from '@lomo/runtime';

export const EXECUTOR_IDENTITY_FILE = 'executor-identity.sqlite';

/**
 * The worker id this executor writes into turn leases, stable across restarts so a restarted
 * process takes its own turns back at once (libs/runtime/src/worker/reclaim-own-turns.ts):
 * - LOMO_WORKER_ID when set (distributed: a stable, unique name such as a StatefulSet pod name);
 * - embedded, unset: made once and kept in the data directory, locked while this process lives, so
 *   a second process on the same directory is refused (WORKER_ID_IN_USE) rather than sharing it;
 * - distributed, unset: `<hostname>-<pid>`, new at every restart: turns of a killed process are
 *   taken over only once their leases expire (a warning says so).
 * The lock is let go at application shutdown, after ExecutorLifecycle released every lease in
 * onModuleDestroy; a killed process loses it with its file descriptors.
 */
@Injectable()
export class ExecutorIdentity implements OnApplicationShutdown {
  readonly workerId: string;
  private readonly persisted: PersistedWorkerId | undefined;

  constructor(
    @Inject(LOMO_CONFIG) config: LomoConfig,
    @Inject(ID_GENERATOR) ids: IdGenerator,
    @Inject(CLOCK) clock: Clock,
    @Inject(LOGGER) logger: Logger,
  ) {
    if (!config.workerIdFromEnv && config.LOMO_MODE === 'embedded') {
      const filename = join(config.LOMO_DATA_DIR, EXECUTOR_IDENTITY_FILE);
      this.persisted = PersistedWorkerId.acquire({ filename, ids, clock });
      this.workerId = this.persisted.workerId;
      logger.info(
        { component: 'executor', workerId: this.workerId, filename },
        'executor identity kept in the data dir',
      );
      return;
    }
    this.workerId = config.LOMO_WORKER_ID;
    if (!config.workerIdFromEnv)
      logger.warn(
        { component: 'executor', workerId: this.workerId },
        'LOMO_WORKER_ID is not set: this executor gets a new id at each restart, so turns it held wait for their leases to expire',
      );
  }

  onApplicationShutdown(): void {
    this.persisted?.close();
  }
}
