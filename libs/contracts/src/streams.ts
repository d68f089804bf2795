import { InvalidStreamIdError } from './errors';

export const streamCategories = [
  'main',
  'task',
  'turn',
  'generation',
  'artifact',
  'memory',
  'account',
  'receipt',
  'operator',
] as const;
export type StreamCategory = (typeof streamCategories)[number];

const streamIdPattern = /^([a-z]+)-([A-Za-z0-9_.:-]{1,200})$/;

export function categoryOf(streamId: string): string {
  const m = streamIdPattern.exec(streamId);
  if (!m) throw new InvalidStreamIdError(streamId);
  return m[1];
}

export const isValidStreamId = (streamId: string) => streamIdPattern.test(streamId);

export const streams = {
  main: (workspaceId: string, userId: string) => `main-${workspaceId}.${userId}`,
  task: (taskId: string) => `task-${taskId}`,
  turn: (turnId: string) => `turn-${turnId}`,
  artifact: (artifactId: string) => `artifact-${artifactId}`,
  /** One paid media job; jobId derives from (workspaceId, idempotencyKey) (libs/generation/src/job/job-ids.ts). */
  generation: (jobId: string) => `generation-${jobId}`,
  /** One person's memory in one workspace, private to that person (DESIGN.md §3, §4 "Tenancy"). */
  memory: (workspaceId: string, userId: string) => `memory-${workspaceId}.${userId}`,
  /** The workspace's money ledger: quotes, approvals, reservations, charges, refunds, limits. */
  account: (workspaceId: string) => `account-${workspaceId}`,
  /**
   * The marker of one message a client sent with its own id: created with "no stream" expected, it
   * is the uniqueness check that makes a retried request return the first result (DESIGN.md §4).
   * Keyed by workspace and user like the main line it guards, and as private.
   */
  receipt: (workspaceId: string, userId: string, messageId: string) => `receipt-${workspaceId}.${userId}.${messageId}`,
  /** What the operators of a workspace did with the CLI or the inspector (events/operator.ts). */
  operator: (workspaceId: string) => `operator-${workspaceId}`,
} as const;
