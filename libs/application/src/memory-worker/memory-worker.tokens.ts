export const MEMORY_RUNNER = Symbol('MEMORY_RUNNER');
export const MEMORY_INDEXER = Symbol('MEMORY_INDEXER');
export const MEMORY_SEARCH = Symbol('MEMORY_SEARCH');
