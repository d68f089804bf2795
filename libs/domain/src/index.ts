export * from './decider';
export * from './task';
export * from './turn';
export * from './main-line';
export * from './memory';
