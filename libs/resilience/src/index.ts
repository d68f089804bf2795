export * from './retry';
export * from './nudgeable-wait';
export * from './mongo-errors';
export * from './retry-after';
