export * from './artifact-commands';
export * from './artifact-events';
export * from './artifact-state';
export * from './artifact-decider';
export * from './artifact-evolve';
export * from './artifact-queries';
export * from './document-text';
export { fingerprintOf } from './decide-document';
