// The inspect part of @lomo/operator; re-exported by the barrel.
export * from './inspection.types';
export type { InspectionSources } from './inspection-sources';
export { parseStreamPoint, type StreamPoint } from './stream-point';
export { readStreamAt, type StreamAtResult } from './stream-at';
export { inspectTask, inspectTurn, type InspectOptions } from './task-inspection';
export { tailEvents, type TailFilter, type TailOptions } from './tail-events';
export { comparePositions } from '../positions';
export { summarize as summarizeEvent, timelineKindOf } from './timeline';
export * from './redact-forgotten';
