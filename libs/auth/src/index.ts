// API tokens (hashed, with a kind) and the caller they resolve to.
export * from './api-token';
export * from './api-token-store.port';
export * from './api-tokens';
export * from './authenticate';
export * from './caller';
export { SqliteApiTokenStore } from './sqlite-api-token-store';
