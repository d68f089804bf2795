import { RebuildInterruptedError } from './errors';
import type { RebuildEnvironment, RebuildExecutor, RebuildGroup, RebuildHooks } from './rebuild-executor.port';
import { rebuildCollections, type RebuildResult, type RebuildTarget } from './rebuild';

/** One group rebuilt on the calling thread, with its stores. */
export function inThreadRebuildGroup<T extends RebuildTarget>(
  targets: readonly T[],
  here: RebuildEnvironment,
): RebuildGroup<T> {
  return { targets, run: (hooks) => rebuildHere(targets, here, hooks) };
}

/** Every target in one group on the calling thread: one read of the log for all of them. */
export const inThreadRebuildExecutor: RebuildExecutor = {
  plan: async <T extends RebuildTarget>(targets: readonly T[], here: RebuildEnvironment) =>
    targets.length === 0 ? [] : [inThreadRebuildGroup(targets, here)],
};

function rebuildHere(
  targets: readonly RebuildTarget[],
  here: RebuildEnvironment,
  hooks: RebuildHooks,
): Promise<RebuildResult> {
  const names = targets.map((t) => t.definition.name);
  return rebuildCollections(targets, {
    documents: here.documents,
    events: here.events,
    context: here.context,
    logger: here.logger,
    batchSize: here.batchSize,
    onBatch: async (progress) => {
      hooks.progress(progress.events);
      if (hooks.signal.aborted) throw new RebuildInterruptedError(names);
      await hooks.renewLease();
    },
  });
}
