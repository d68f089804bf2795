export * from './decider';
export * from './task';
export * from './turn';
