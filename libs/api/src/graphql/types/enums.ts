import { registerEnumType } from '@nestjs/graphql';

// GraphQL names are upper case; the values are the read models' own strings, so documents map
// to the schema without translation tables.

export const TaskStatus = {
  ACTIVE: 'active',
  WAITING: 'waiting',
  PAUSED: 'paused',
  STOPPED: 'stopped',
  COMPLETED: 'completed',
  ARCHIVED: 'archived',
} as const;
export type TaskStatus = (typeof TaskStatus)[keyof typeof TaskStatus];

export const TaskKind = { LIGHTWEIGHT: 'lightweight', PERSISTENT: 'persistent' } as const;
export type TaskKind = (typeof TaskKind)[keyof typeof TaskKind];

/** `tasks(kind:)`: lightweight tasks (one-shot jobs) are listed only when asked for. */
export const TaskListKind = { LIGHTWEIGHT: 'lightweight', PERSISTENT: 'persistent', ALL: 'all' } as const;
export type TaskListKind = (typeof TaskListKind)[keyof typeof TaskListKind];

export const InboxItemStatus = {
  DELIVERED: 'delivered',
  CLAIMED: 'claimed',
  RELEASED: 'released',
  WITHDRAWN: 'withdrawn',
  REPLACED: 'replaced',
  MOVED: 'moved',
} as const;

export const TurnStatus = {
  QUEUED: 'queued',
  RUNNING: 'running',
  WAITING: 'waiting',
  COMPLETED: 'completed',
  FAILED: 'failed',
  CANCELLED: 'cancelled',
} as const;

export const ToolCallStatus = {
  INTENDED: 'intended',
  STARTED: 'started',
  COMPLETED: 'completed',
  UNKNOWN: 'unknown',
} as const;

export const ToolCallOutcome = { OK: 'ok', ERROR: 'error' } as const;

export const RoutingOutcome = {
  MAIN: 'main',
  LIGHTWEIGHT: 'lightweight',
  EXISTING: 'existing',
  NEW: 'new',
  CLARIFY: 'clarify',
} as const;

export const RoutingMethod = { DETERMINISTIC: 'deterministic', SEMANTIC: 'semantic' } as const;

export const ClarificationAction = { ROUTE: 'route', NEW: 'new', REOPEN: 'reopen' } as const;

export const ClarificationReason = {
  AMBIGUOUS: 'ambiguous',
  TARGET_UNAVAILABLE: 'target_unavailable',
  MODEL_UNAVAILABLE: 'model_unavailable',
  INVALID_ANSWER: 'invalid_answer',
  DUPLICATE: 'duplicate',
  MODEL_ASKED: 'model_asked',
} as const;

export const MessageChannel = { UI: 'ui', API: 'api', CARD: 'card' } as const;

export const MainLineItemKind = { MESSAGE: 'message', CARD: 'card' } as const;

registerEnumType(TaskStatus, { name: 'TaskStatus' });
registerEnumType(TaskKind, { name: 'TaskKind' });
registerEnumType(TaskListKind, {
  name: 'TaskListKind',
  description: 'Which tasks `tasks` lists: lightweight ones only when asked for.',
});
registerEnumType(InboxItemStatus, { name: 'InboxItemStatus' });
registerEnumType(TurnStatus, { name: 'TurnStatus' });
registerEnumType(ToolCallStatus, { name: 'ToolCallStatus' });
registerEnumType(ToolCallOutcome, { name: 'ToolCallOutcome' });
registerEnumType(RoutingOutcome, { name: 'RoutingOutcome' });
registerEnumType(RoutingMethod, { name: 'RoutingMethod' });
registerEnumType(ClarificationAction, { name: 'ClarificationAction' });
registerEnumType(ClarificationReason, { name: 'ClarificationReason' });
registerEnumType(MessageChannel, { name: 'MessageChannel' });
registerEnumType(MainLineItemKind, { name: 'MainLineItemKind' });
