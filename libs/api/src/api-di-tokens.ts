import type { ReadModels } from '@lomo/read-models';

export const API_SETTINGS = Symbol('API_SETTINGS');
/** ApiTokens over the token store: issue, look up, revoke. */
export const API_TOKENS = Symbol('API_TOKENS');
/** Buckets per API token (operations). */
export const API_RATE_LIMITER = Symbol('API_RATE_LIMITER');
/** Buckets per client address (HTTP requests, WebSocket connections), taken before authentication. */
export const API_IP_RATE_LIMITER = Symbol('API_IP_RATE_LIMITER');
export const API_READ_MODELS = Symbol('API_READ_MODELS');

/** The read-model queries the API serves, scoped by workspace but for operators' cross-workspace ones. */
export type ApiReadModels = Pick<
  ReadModels,
  | 'listTasks'
  | 'getTask'
  | 'getTurn'
  | 'turnsOfTask'
  | 'inboxOfTask'
  | 'mainLine'
  | 'getMessage'
  // Operator tokens only (operatorTasks): every workspace.
  | 'scanTasksOfAllWorkspaces'
  | 'getTaskOfAnyWorkspace'
>;
