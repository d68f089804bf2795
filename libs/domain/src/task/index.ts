export * from './task-events';
export * from './task-state';
export * from './task-commands';
export * from './task-errors';
export * from './task-queries';
export { taskDecider, decideTask } from './task-decider';
export { evolveTask } from './task-evolve';
export { MAX_ITEMS_PER_CLAIM } from './decide-inbox';
