export * from './turn-events';
export * from './turn-state';
export * from './turn-commands';
export * from './turn-errors';
export * from './turn-queries';
/** The guards the deciders use, for callers that need a narrowed turn or a typed refusal. */
export { existingTurn, openTurn as liveTurn, running } from './turn-guards';
export { CALL_DECLINED } from './decide-calls';
export { turnDecider, decideTurn } from './turn-decider';
export { evolveTurn } from './turn-evolve';
