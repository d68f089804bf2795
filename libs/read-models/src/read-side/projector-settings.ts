import { availableParallelism } from 'node:os';
import type { LomoConfig } from '@lomo/config';

export interface ProjectorSettings {
  /** Read models on MongoDB/FerretDB when set, else SQLite at `sqlitePath`. */
  mongodbUrl: string | undefined;
  mongodbDatabase: string;
  sqlitePath: string;
  /** `bus`: relayed events (consumer group `projector`); `store`: tail the event store directly. */
  feed: 'bus' | 'store';
  /** Store sweep period: repairs what the feed missed and refreshes the lag figures. */
  sweepMs: number;
  maxLagSeconds: number;
  /**
   * Worker threads a rebuild may use when the event store and the read models are SQLite files
   * (one group of projections per thread; 0 rebuilds on the main thread). Not a variable: the
   * machine's cores.
   */
  rebuildThreads: number;
}

/** The projector's settings, from the validated configuration (libs/config owns the variables). */
export function projectorSettings(
  config: Pick<
    LomoConfig,
    | 'MONGODB_URL'
    | 'MONGODB_DATABASE'
    | 'LOMO_READ_MODELS_PATH'
    | 'LOMO_PROJECTOR_FEED'
    | 'LOMO_PROJECTOR_SWEEP_MS'
    | 'LOMO_PROJECTOR_MAX_LAG_SECONDS'
  >,
): ProjectorSettings {
  return {
    mongodbUrl: config.MONGODB_URL,
    mongodbDatabase: config.MONGODB_DATABASE,
    sqlitePath: config.LOMO_READ_MODELS_PATH,
    feed: config.LOMO_PROJECTOR_FEED,
    sweepMs: config.LOMO_PROJECTOR_SWEEP_MS,
    maxLagSeconds: config.LOMO_PROJECTOR_MAX_LAG_SECONDS,
    rebuildThreads: availableParallelism(),
  };
}
