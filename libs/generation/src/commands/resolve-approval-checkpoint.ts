import { AggregateStream, handleCommand, metadataOf, type StreamWrite } from '@lomo/command-handling';
import { streams, type IdGenerator } from '@lomo/contracts';
import {
  DomainError,
  TaskErrors,
  taskDecider,
  taskEventTypes,
  type ResolveCheckpoint,
  type TaskEvent,
  type TaskState,
} from '@lomo/domain';
import type { EventStore } from '@lomo/eventstore';

export interface ApprovalCheckpoint {
  workspaceId: string;
  taskId: string;
  checkpointId: string;
  callId: string;
  userId: string;
}

type TaskStream = AggregateStream<TaskEvent, TaskState>;

const commandOf = (c: ApprovalCheckpoint): ResolveCheckpoint => ({
  type: 'ResolveCheckpoint',
  checkpointId: c.checkpointId,
  decision: 'approve',
  callId: c.callId,
  resolvedBy: c.userId,
});

/** The task must exist in the caller's workspace; a task of another reads as none (TASK_NOT_FOUND). */
const requireTaskIn = (c: ApprovalCheckpoint) => (stream: TaskStream) => {
  if (stream.state.status === 'none' || stream.workspaceId !== c.workspaceId)
    throw new DomainError(TaskErrors.TASK_NOT_FOUND, `No task ${c.taskId}`);
};

/** Decided by another person, or rejected meanwhile: the quote's approval stands on its own. */
const alreadyResolved = (error: unknown) =>
  error instanceof DomainError && error.code === TaskErrors.CHECKPOINT_ALREADY_RESOLVED;

/**
 * Whether resolving would be refused for another reason than "already resolved" (the task was
 * stopped, the checkpoint names another call): checked before the quote is approved, so a refused
 * approval appends nothing anywhere. Decides on the folded stream and appends nothing.
 */
export async function checkApprovalCheckpoint(store: EventStore, c: ApprovalCheckpoint): Promise<void> {
  const stream = await AggregateStream.read(store, streams.task(c.taskId), taskDecider, taskEventTypes);
  requireTaskIn(c)(stream);
  try {
    taskDecider.decide(commandOf(c), stream.state);
  } catch (error) {
    if (!alreadyResolved(error)) throw error;
  }
}

/**
 * Resolves the task's approval checkpoint for the job's call with the person as actor, as
 * libs/runtime/src/commands/resolve-checkpoint.ts does; one already resolved is left as it is.
 */
export async function resolveApprovalCheckpoint(
  store: EventStore,
  ids: IdGenerator,
  c: ApprovalCheckpoint,
): Promise<{ changed: boolean; writes: StreamWrite[]; turnId: string | undefined }> {
  try {
    const result = await handleCommand(store, streams.task(c.taskId), taskDecider, commandOf(c), {
      eventTypes: taskEventTypes,
      ids,
      guard: requireTaskIn(c),
      metadata: metadataOf({
        workspaceId: c.workspaceId,
        actor: { kind: 'user', userId: c.userId },
        fallbackCorrelationId: c.taskId,
      }),
    });
    const turnId = result.state.status === 'none' ? undefined : result.state.checkpoints[c.checkpointId]?.turnId;
    return { changed: result.changed, writes: result.writes, turnId };
  } catch (error) {
    if (alreadyResolved(error)) {
      // The quote's approval is idempotent; the card was decided before. The token still names
      // where that outcome sits on the task stream.
      const stream = await AggregateStream.read(store, streams.task(c.taskId), taskDecider, taskEventTypes);
      const writes =
        stream.revision === 'no_stream' ? [] : [{ streamId: streams.task(c.taskId), revision: stream.revision }];
      return { changed: false, writes, turnId: undefined };
    }
    throw error;
  }
}
