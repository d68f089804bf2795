export * from './fake-clock';
export * from './memory-log';
export * from './given-when-then';

export * from './decider-contract';
