// Test support for @lomo/auth: the ApiTokenStore contract suite and its document-store harnesses.
export * from './api-token-store.contract';
export * from './document-token-store-harness';
