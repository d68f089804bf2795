export * from './blob-store.port';
export * from './blob-errors';
export * from './filesystem-blob-store';
export * from './gridfs-blob-store';
export * from './sqlite-blob-store';
