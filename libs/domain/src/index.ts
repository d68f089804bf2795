export * from './decider';
