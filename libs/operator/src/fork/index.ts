export * from './fork-errors';
export * from './fork-point';
export * from './plan-fork';
export * from './fork-task';
export * from './arm-fork-tools';
