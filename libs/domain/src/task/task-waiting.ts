import type { TaskBase } from './task-state';

/** The two runnable statuses; which one holds follows from the open checkpoints alone. */
export type RunnableStatus = 'active' | 'waiting';

/**
 * The waiting rule: a runnable task is `waiting` while at least one checkpoint is open and
 * `active` otherwise; every other status (paused, final, or none yet) is kept as it is. The task
 * decider applies it after each event (task-evolve.ts), and the tasks projection applies it to its
 * own count of open checkpoints (libs/read-models/src/projections/tasks/task.evolve.ts), so the
 * read model and the decider cannot disagree about when a task waits.
 */
export function settleRunnableStatus<S extends string | null>(status: S, openCheckpoints: number): S | RunnableStatus {
  if (status !== 'active' && status !== 'waiting') return status;
  return openCheckpoints > 0 ? 'waiting' : 'active';
}

/** Checkpoints of the task that no CheckpointResolved answered yet. */
export function openCheckpointCount(task: Pick<TaskBase, 'checkpoints'>): number {
  let open = 0;
  for (const id in task.checkpoints) if (task.checkpoints[id].resolution === null) open += 1;
  return open;
}
