import type { Actor, EventDataMap } from '@lomo/contracts';

/** Every event of a person's `memory-{workspaceId}.{userId}` stream, named as in the contracts registry. */
export const memoryEventTypes = [
  'MemoryEvidenceRecorded',
  'MemoryEvidenceCopied',
  'MemoryExtractionRecorded',
  'MemoryVersionCreated',
  'MemoryVersionConfirmed',
  'MemoryVersionSuperseded',
  'ForgettingRequested',
  'ForgettingConfirmed',
  'ForgettingCancelled',
  'EvidenceRevoked',
  'MemoryVersionPurged',
  'MemoryEvidenceDetached',
  'ExtractionSuppressed',
  'ProfileVersionPublished',
  'ProfileVersionPurged',
  'EpisodeSummaryWritten',
  'EpisodeSummaryInvalidated',
  'ForgettingCompleted',
] as const;

export type MemoryEventType = (typeof memoryEventTypes)[number];

/** `{type, data}` of one memory event; `recordedBy` as for task events (../task/task-events.ts). */
export type MemoryEventOf<T extends MemoryEventType> = { type: T; data: EventDataMap[T]; recordedBy?: Actor };

export type MemoryEvent = { [T in MemoryEventType]: MemoryEventOf<T> }[MemoryEventType];
