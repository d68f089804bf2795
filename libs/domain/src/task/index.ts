export * from './task-events';
export * from './task-state';
export * from './task-commands';
export * from './task-errors';
export * from './task-queries';
export * from './task-waiting';
export { linked, withItemChange, type ItemProgress } from './checklist-rules';
export { planBudgetIdForCard } from './task-ids';
/** The guards the deciders use, for callers that need a narrowed task or a typed refusal. */
export { existing as existingTask, notFinal as notFinalTask, runnable } from './task-guards';
export { taskDecider, decideTask } from './task-decider';
export { evolveTask } from './task-evolve';
export { MAX_ITEMS_PER_CLAIM } from './decide-inbox';
export { moveNote, MAX_MERGED_ITEMS } from './decide-corrections';
export { isToolArmed } from './decide-fork';
