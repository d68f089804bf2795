export * from './fake-clock';
export * from './memory-log';
export * from './given-when-then';
// decider-contract.ts is imported by its path, not from here: see its first lines.
