// API tokens (hashed, with a kind) and the caller they resolve to.
export * from './api-token';
export * from './api-token-store.port';
export * from './api-tokens';
export * from './authenticate';
export * from './caller';
export * from './caching-api-token-store';
export * from './document-api-token-store';
export * from './migrate-sqlite-tokens';
export * from './open-api-token-store';
export * from './visibility-policy';
