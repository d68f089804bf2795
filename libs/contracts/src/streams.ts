import { InvalidStreamIdError } from './errors';

export const streamCategories = ['main', 'task', 'turn', 'generation', 'artifact', 'memory', 'account'] as const;
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
} as const;
