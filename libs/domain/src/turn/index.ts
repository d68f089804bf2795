export * from './turn-events';
export * from './turn-state';
export * from './turn-commands';
export * from './turn-errors';
export * from './turn-queries';
export { CALL_DECLINED } from './decide-calls';
export { turnDecider, decideTurn } from './turn-decider';
export { evolveTurn } from './turn-evolve';
