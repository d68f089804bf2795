import type { EventDataMap } from '@lomo/contracts';

/** Every event of a `task-{taskId}` stream, named exactly as in the contracts registry. */
export const taskEventTypes = [
  'TaskCreated',
  'TaskUpgraded',
  'BriefUpdated',
  'ChecklistPlanned',
  'ChecklistItemChanged',
  'MessageDeliveredToInbox',
  'InboxItemWithdrawn',
  'InboxItemReplaced',
  'InboxItemsClaimed',
  'InboxItemsReleased',
  'TurnOpened',
  'TurnClosed',
  'CheckpointOpened',
  'CheckpointResolved',
  'AutonomyChanged',
  'PlanBudgetApproved',
  'TaskPaused',
  'TaskResumed',
  'TaskStopped',
  'TaskCompleted',
  'TaskArchived',
  'ArtifactChangeNoticed',
] as const;

export type TaskEventType = (typeof taskEventTypes)[number];

/** `{type, data}` of one task event; metadata is the command handler's business, not the domain's. */
export type TaskEventOf<T extends TaskEventType> = { type: T; data: EventDataMap[T] };

export type TaskEvent = { [T in TaskEventType]: TaskEventOf<T> }[TaskEventType];
