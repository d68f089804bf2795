// Test support for @lomo/workspace.
export * from './workspace-harness';
export * from './artifact-events';
export * from './workspace-test-projector';
export * from './task-writes';
// In-memory fakes of its ports (never in the production barrel).
export { FakeWorkspace, type FakeWorkspaceOptions, type FakeWorkspaceCall } from './fake-workspace';
export { FakeWorkspaceModule } from './fake-workspace.module';
