export * from './memory-state';
export * from './memory-commands';
