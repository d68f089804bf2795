export * from './main-line-events';
export * from './main-line-commands';
export * from './main-line-state';
export * from './main-line-errors';
export { mainLineDecider, decideMainLine, evolveMainLine } from './main-line-decider';
export * from './message-receipt';
