// Test helpers of @lomo/operator (never imported by production code).
export {};
