import type { Actor, EventDataMap } from '@lomo/contracts';

/** Every event of a `generation-{jobId}` stream, named exactly as in the contracts registry. */
export const generationJobEventTypes = [
  'GenerationRequested',
  'GenerationApprovalRequested',
  'GenerationSubmissionStarted',
  'GenerationSubmitted',
  'GenerationProgressed',
  'GenerationCompleted',
  'GenerationFailed',
  'GenerationCharged',
  'GenerationRefunded',
] as const;

export type GenerationJobEventType = (typeof generationJobEventTypes)[number];

/** `{type, data}` of one job event; `recordedBy` as for task events (libs/domain/src/task/task-events.ts). */
export type GenerationJobEventOf<T extends GenerationJobEventType> = {
  type: T;
  data: EventDataMap[T];
  recordedBy?: Actor;
};

export type GenerationJobEvent = { [T in GenerationJobEventType]: GenerationJobEventOf<T> }[GenerationJobEventType];

export type GenerationQuoteData = EventDataMap['GenerationRequested']['quote'];
export type GenerationParamsData = EventDataMap['GenerationRequested']['params'];
export type MediaKindData = EventDataMap['GenerationRequested']['kind'];
export type GenerationFailureReason = EventDataMap['GenerationFailed']['reason'];
export type ResultBlobData = EventDataMap['GenerationCompleted']['result'];
export type ProgressStatus = EventDataMap['GenerationProgressed']['status'];
export type ProgressSource = EventDataMap['GenerationProgressed']['source'];
