export * from './job-commands';
export * from './job-events';
export * from './job-state';
export * from './job-errors';
export * from './job-ids';
export * from './job-progress';
export { generationJobDecider, decideGenerationJob } from './job-decider';
export { evolveGenerationJob } from './job-evolve';
export { upstreamIdOf, isFinal as isFinalJob } from './job-guards';
