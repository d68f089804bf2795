import { randomUUID } from 'node:crypto';
import type { EventStore } from '@lomo/eventstore';
import type { Logger, Metrics } from '@lomo/observability';
import type { DocumentStore } from '../../document-store/document-store.port';
import type { ChangeNoticeSink } from './change-notice';
import { inThreadRebuildExecutor } from './in-thread-rebuild-executor';
import type { AnyProjection } from './projection-definition';
import type { RebuildExecutor } from './rebuild-executor.port';

export interface ProjectionRunnerOptions {
  documents: DocumentStore;
  events: EventStore;
  projections: readonly AnyProjection[];
  logger: Logger;
  notices?: ChangeNoticeSink;
  metrics?: Metrics;
  /** The clock of checkpoints, lag and rebuild leases. */
  now?: () => Date;
  /** Owner id of rebuild leases; unique per instance. */
  instanceId?: string;
  /** Events per read (and per bulk write round) while rebuilding. */
  rebuildBatchSize?: number;
  /**
   * Where rebuilds run; default: on this thread. On SQLite files the projector passes a
   * `ThreadedRebuildExecutor` (worker threads, `rebuildThreadsOf` in @lomo/application).
   */
  rebuildExecutor?: RebuildExecutor;
  /** Events per read while sweeping the store after a checkpoint. */
  sweepBatchSize?: number;
  rebuildLeaseMs?: number;
  /** How often an instance waiting for another's rebuild looks at the alias. */
  rebuildWaitPollMs?: number;
  /** Readers may still hold a retired collection's name this long (their alias cache). */
  dropRetiredAfterMs?: number;
  /** /health reports down when a live projection is further behind than this. */
  maxLagSeconds?: number;
}

/** The options with every default filled in; the runner's collaborators read only these. */
export type ResolvedRunnerOptions = Required<Omit<ProjectionRunnerOptions, 'notices' | 'metrics'>> &
  Pick<ProjectionRunnerOptions, 'notices' | 'metrics'>;

export function resolveRunnerOptions(options: ProjectionRunnerOptions): ResolvedRunnerOptions {
  return {
    ...options,
    logger: options.logger.child({ component: 'projector' }),
    now: options.now ?? (() => new Date()),
    instanceId: options.instanceId ?? randomUUID(),
    rebuildBatchSize: options.rebuildBatchSize ?? 5_000,
    rebuildExecutor: options.rebuildExecutor ?? inThreadRebuildExecutor,
    sweepBatchSize: options.sweepBatchSize ?? 1_000,
    rebuildLeaseMs: options.rebuildLeaseMs ?? 60_000,
    rebuildWaitPollMs: options.rebuildWaitPollMs ?? 500,
    dropRetiredAfterMs: options.dropRetiredAfterMs ?? 5_000,
    maxLagSeconds: options.maxLagSeconds ?? 60,
  };
}
