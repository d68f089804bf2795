export * from './search/search-index.port';
export * from './search/search-index.errors';
export { MAX_SEARCH_LIMIT } from './search/search-input';
export * from './search/sqlite/sqlite-search-index';
export * from './search/mongodb/mongo-search-index';
export * from './bindings/artifact-bindings.port';
