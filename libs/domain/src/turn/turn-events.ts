import type { Actor, EventDataMap } from '@lomo/contracts';

/** Every event of a `turn-{turnId}` stream, named exactly as in the contracts registry. */
export const turnEventTypes = [
  'TurnStarted',
  'TurnLeased',
  'TurnLeaseRenewed',
  'ModelStepCommitted',
  'ToolCallStarted',
  'ToolCallCompleted',
  'ToolCallOutcomeUnknown',
  'TurnWaiting',
  'TurnResumed',
  'TurnCompleted',
  'TurnFailed',
  'TurnCancelled',
] as const;

export type TurnEventType = (typeof turnEventTypes)[number];

/** `{type, data}` of one turn event; `recordedBy` as for task events (libs/domain/src/task/task-events.ts). */
export type TurnEventOf<T extends TurnEventType> = { type: T; data: EventDataMap[T]; recordedBy?: Actor };

export type TurnEvent = { [T in TurnEventType]: TurnEventOf<T> }[TurnEventType];
