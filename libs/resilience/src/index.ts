export * from './retry';
export * from './nudgeable-wait';
