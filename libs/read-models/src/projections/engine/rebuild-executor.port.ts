import type { EventStore } from '@lomo/eventstore';
import type { Logger } from '@lomo/observability';
import type { DocumentStore } from '../../document-store/document-store.port';
import type { EngineContext } from './projection-engine';
import type { RebuildResult, RebuildTarget } from './rebuild';

/**
 * Where rebuilds run: on the calling thread (`inThreadRebuildExecutor`, the default) or elsewhere,
 * e.g. on worker threads over SQLite files (`ThreadedRebuildExecutor` in ../sqlite-rebuild). The
 * RebuildCoordinator holds the leases and switches the aliases; an executor only fills the fresh
 * collections, in groups it chooses, each switched as soon as it is done.
 */
export interface RebuildExecutor {
  /**
   * Splits `targets` into groups to rebuild side by side; every target lands in exactly one
   * group, as the same object (the coordinator passes its slots).
   */
  plan<T extends RebuildTarget>(targets: readonly T[], here: RebuildEnvironment): Promise<Array<RebuildGroup<T>>>;
}

/** The calling thread's stores and settings, for rebuilding here (or deciding whether to). */
export interface RebuildEnvironment {
  documents: DocumentStore;
  events: Pick<EventStore, 'readAll' | 'readStream' | 'headPosition'>;
  context: EngineContext;
  logger: Logger;
  /** Events per read (and per bulk write round). */
  batchSize: number;
}

export interface RebuildGroup<T extends RebuildTarget = RebuildTarget> {
  readonly targets: readonly T[];
  /**
   * Rebuilds the group's collections. Rejects with RebuildInterruptedError once `hooks.signal`
   * aborted (at the next batch), or with the rebuild's error.
   */
  run(hooks: RebuildHooks): Promise<RebuildResult>;
}

export interface RebuildHooks {
  /** Aborted by the runner's stop(): the rebuild ends at its next batch, switching nothing. */
  signal: AbortSignal;
  /** After each batch: events read so far by this group (shown as `rebuiltEvents`). */
  progress(events: number): void;
  /**
   * After each batch, once the stop was checked: renews the rebuild leases when due. A rejection
   * fails the rebuild where the executor waits for it (on this thread).
   */
  renewLease(): Promise<void>;
}
