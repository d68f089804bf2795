import type { Actor, EventDataMap } from '@lomo/contracts';

/** Every event of a person's `main-{workspaceId}.{userId}` stream, named as in the contracts registry. */
export const mainLineEventTypes = [
  'UserMessageReceived',
  'RoutingDecided',
  'ClarificationRequested',
  'ClarificationAnswered',
  'MainReplied',
  'TaskCardShown',
] as const;

export type MainLineEventType = (typeof mainLineEventTypes)[number];

/** `{type, data}` of one main-line event; `recordedBy` as for task events (../task/task-events.ts). */
export type MainLineEventOf<T extends MainLineEventType> = { type: T; data: EventDataMap[T]; recordedBy?: Actor };

export type MainLineEvent = { [T in MainLineEventType]: MainLineEventOf<T> }[MainLineEventType];
