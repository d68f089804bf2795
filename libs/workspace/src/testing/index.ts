// Test support for @lomo/workspace.
export * from './workspace-harness';
