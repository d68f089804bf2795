// Test helpers of @lomo/operator (never imported by production code).
export * from './inspection-world';
export * from './inspection-story';
export * from './rebuild-world';
export * from './replay-scenario';
