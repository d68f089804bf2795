export * from './trace-context';
export * from './logger';
export * from './metrics';
