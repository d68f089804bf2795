import type { Actor, EventDataMap } from '@lomo/contracts';

/** Every event of a `task-{taskId}` stream, named exactly as in the contracts registry. */
export const taskEventTypes = [
  'TaskCreated',
  'TaskUpgraded',
  'TaskSummaryUpdated',
  'MessageMoved',
  'TasksMerged',
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
  'ContinuationDecided',
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
  'ArtifactChangeNoticeWidened',
  'ArtifactChangeNoticesConsumed',
  'ToolDomainsLoaded',
  'ToolDomainsUnloaded',
  'HistorySegmentAppended',
  'HistorySegmentsExcluded',
  'ConstraintsNoted',
  'ContextExcluded',
  'ForkedFrom',
  'ToolsArmed',
] as const;

export type TaskEventType = (typeof taskEventTypes)[number];

/**
 * `{type, data}` of one task event; metadata is the command handler's business, not the domain's,
 * except who recorded it: `recordedBy` is the stored event's actor when the event is folded from the
 * log (absent on events a decider just produced). An approval the agent recorded never authorizes.
 */
export type TaskEventOf<T extends TaskEventType> = { type: T; data: EventDataMap[T]; recordedBy?: Actor };

export type TaskEvent = { [T in TaskEventType]: TaskEventOf<T> }[TaskEventType];
