export * from './extraction';
export * from './forgetting';
export * from './recall';
export * from './profile';
export * from './worker';
export * from './memory-stream';
