// Test support for @lomo/application.
export * from './router-harness';
