// Test support for @lomo/workspace.
export * from './workspace-harness';
export * from './artifact-events';
export * from './workspace-test-projector';
export * from './task-writes';
