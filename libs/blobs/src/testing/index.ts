// Test support for @lomo/blobs: the BlobStore contract suite and a harness per adapter.
export * from './blob-store.contract';
export * from './filesystem-harness';
export * from './gridfs-harness';
export * from './sqlite-harness';
export * from './in-memory-blob-store';
