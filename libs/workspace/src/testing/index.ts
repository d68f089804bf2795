export * from './artifact-events';
export * from './workspace-test-projector';
export * from './task-writes';
