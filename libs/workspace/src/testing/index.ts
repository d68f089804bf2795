// Test support for @lomo/workspace: in-memory fakes of its ports (never in the production barrel).
export { FakeWorkspace, type FakeWorkspaceOptions, type FakeWorkspaceCall } from './fake-workspace';
export { FakeWorkspaceModule } from './fake-workspace.module';
