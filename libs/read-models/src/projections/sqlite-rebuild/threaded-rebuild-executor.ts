import { WRITE_LOCK_BYTES } from '../../document-store/sqlite/sqlite-write-lock';
import { inThreadRebuildExecutor, inThreadRebuildGroup } from '../engine/in-thread-rebuild-executor';
import type { RebuildTarget } from '../engine/rebuild';
import type { RebuildEnvironment, RebuildExecutor, RebuildGroup } from '../engine/rebuild-executor.port';
import { planRebuildGroups } from './rebuild-groups';
import {
  canRebuildOnThread,
  DEFAULT_REBUILD_THREADS_MIN_EVENTS,
  rebuildOnThread,
  RebuildThreadUnavailableError,
  type RebuildThreadsOptions,
} from './rebuild-threads';
import { describeError } from '../engine/describe-error';

/**
 * Rebuilds on worker threads when the event store and the read models are SQLite files each
 * thread can open itself (the projector decides that: `rebuildThreadsOf` in @lomo/application),
 * one group of projections per thread (`planRebuildGroups`). Projections a thread cannot load
 * (not in `readModelProjections`) are rebuilt on the calling thread, alongside; a group whose
 * thread could not start falls back to the calling thread too.
 */
export class ThreadedRebuildExecutor implements RebuildExecutor {
  /** Taken by the threads around each write transaction on the read-model file (sqlite-write-lock.ts). */
  private readonly writeLock = new SharedArrayBuffer(WRITE_LOCK_BYTES);

  constructor(readonly threads: RebuildThreadsOptions) {}

  async plan<T extends RebuildTarget>(
    targets: readonly T[],
    here: RebuildEnvironment,
  ): Promise<Array<RebuildGroup<T>>> {
    if (!(await this.worthThreads(here))) return inThreadRebuildExecutor.plan(targets, here);
    const onThreads = targets.filter((t) => canRebuildOnThread(t.definition));
    const rest = targets.filter((t) => !onThreads.includes(t));
    const groups = planRebuildGroups(onThreads, this.threads.threads, (t) => t.definition.categories).map((group) =>
      this.threadGroup(group, here),
    );
    if (rest.length > 0) groups.push(inThreadRebuildGroup(rest, here));
    return groups;
  }

  /** Threads are configured and the log is big enough to be worth them (SQLite positions count events). */
  private async worthThreads(here: RebuildEnvironment): Promise<boolean> {
    if (this.threads.threads < 1) return false;
    const minEvents = this.threads.minEvents ?? DEFAULT_REBUILD_THREADS_MIN_EVENTS;
    if (minEvents <= 0) return true;
    const head = Number((await here.events.headPosition()) ?? 0);
    return !Number.isFinite(head) || head >= minEvents;
  }

  private threadGroup<T extends RebuildTarget>(targets: readonly T[], here: RebuildEnvironment): RebuildGroup<T> {
    const names = targets.map((t) => t.definition.name);
    return {
      targets,
      run: async (hooks) => {
        try {
          return await rebuildOnThread(targets, {
            threads: this.threads,
            batchSize: here.batchSize,
            signal: hooks.signal,
            writeLock: this.writeLock,
            logger: here.logger,
            // The thread does not wait for this thread: a failed renewal is tried again at its next batch.
            onProgress: (events) => {
              hooks.progress(events);
              hooks
                .renewLease()
                .catch((error: unknown) =>
                  here.logger.warn(
                    { projections: names, error: describeError(error) },
                    'rebuild lease renewal failed; retrying at the next batch',
                  ),
                );
            },
          });
        } catch (error) {
          if (!(error instanceof RebuildThreadUnavailableError)) throw error;
          here.logger.warn(
            { projections: names, reason: error.reason },
            'no rebuild thread could start; rebuilding on this thread',
          );
          return inThreadRebuildGroup(targets, here).run(hooks);
        }
      },
    };
  }
}
