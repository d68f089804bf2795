export * from './blob-store.port';
export * from './filesystem-blob-store';
