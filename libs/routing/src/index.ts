export * from './search/search-index.port';
export * from './bindings/artifact-bindings.port';
