export * from './memory-state';
export * from './memory-commands';
export * from './memory-events';
export * from './memory-errors';
export * from './memory-queries';
export { memoryDecider, decideMemory } from './memory-decider';
export { evolveMemory, foldMemory, initialMemoryState } from './memory-evolve';
