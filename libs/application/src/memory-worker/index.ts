export { MemoryWorkerModule, type MemoryWorkerModuleOptions } from './memory-worker.module';
export { MemoryWorkerService, MEMORY_GROUP, isRetriableMemoryError } from './memory-worker.service';
export { MEMORY_RUNNER, MEMORY_INDEXER } from './memory-worker.tokens';
