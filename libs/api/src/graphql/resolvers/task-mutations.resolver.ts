import { Inject } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { Args, Mutation, Resolver } from '@nestjs/graphql';
import { streams, type Actor } from '@lomo/contracts';
import { EVENT_STORE, type EventStore } from '@lomo/eventstore';
import { TaskErrors, DomainError } from '@lomo/domain';
import { TaskView, type InterruptResult, type TaskCommandResult } from '@lomo/runtime';
import {
  PauseTask,
  ResumeTask,
  StopTask,
  ArchiveTask,
  ResolveCheckpoint,
  type TaskWriteResult,
} from '@lomo/application';
import type { Caller } from '@lomo/auth';
import { CurrentCaller } from '../../auth/current-caller.decorator';
import { currentTrace } from '../../consistency/current-trace';
import { tokenForWrites } from '../../consistency/token-for-writes';
import { StreamOwnership } from '../../tenancy/stream-ownership';
import { validate } from '../args/input-schemas';
import {
  ResolveCheckpointArgs,
  TaskArgs,
  TaskWithReasonArgs,
  resolveCheckpointSchema,
  taskSchema,
  taskWithReasonSchema,
} from '../args/mutation.args';
import { ResolveCheckpointPayload, TaskChangePayload } from '../types/payloads';

/**
 * Pause, resume and stop go through the executor's commands, so a stop cancels the active turn on
 * its turn stream before the task is stopped and the lease holder is told to abort. Every one is
 * checked against the caller's workspace first: those commands load a task by id alone.
 */
@Resolver()
export class TaskMutationsResolver {
  constructor(
    @Inject(CommandBus) private readonly commands: CommandBus,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(StreamOwnership) private readonly ownership: StreamOwnership,
  ) {}

  @Mutation(() => TaskChangePayload, { description: 'Stops the task; its running turn is cancelled first.' })
  async stopTask(@CurrentCaller() caller: Caller, @Args() args: TaskWithReasonArgs): Promise<TaskChangePayload> {
    const { taskId, reason } = validate(taskWithReasonSchema, args);
    await this.ownership.require(streams.task(taskId), caller, 'task', taskId);
    const result = await this.commands.execute<StopTask, InterruptResult>(
      new StopTask(taskId, actorOf(caller), reason),
    );
    return this.interrupted(taskId, result);
  }

  @Mutation(() => TaskChangePayload, { description: 'Pauses the task; its running turn is cancelled, its inbox kept.' })
  async pauseTask(@CurrentCaller() caller: Caller, @Args() args: TaskWithReasonArgs): Promise<TaskChangePayload> {
    const { taskId, reason } = validate(taskWithReasonSchema, args);
    await this.ownership.require(streams.task(taskId), caller, 'task', taskId);
    const result = await this.commands.execute<PauseTask, InterruptResult>(
      new PauseTask(taskId, actorOf(caller), reason),
    );
    return this.interrupted(taskId, result);
  }

  @Mutation(() => TaskChangePayload, { description: 'Resumes a paused task and wakes it.' })
  async resumeTask(@CurrentCaller() caller: Caller, @Args() args: TaskArgs): Promise<TaskChangePayload> {
    const { taskId } = validate(taskSchema, args);
    await this.ownership.require(streams.task(taskId), caller, 'task', taskId);
    const result = await this.commands.execute<ResumeTask, TaskCommandResult>(new ResumeTask(taskId, actorOf(caller)));
    return {
      taskId,
      changed: result.changed,
      cancelledTurnId: null,
      consistencyToken: tokenForWrites(result.writes),
    };
  }

  @Mutation(() => TaskChangePayload, { description: 'Archives a task once no turn runs; archived is final.' })
  async archiveTask(@CurrentCaller() caller: Caller, @Args() args: TaskArgs): Promise<TaskChangePayload> {
    const { taskId } = validate(taskSchema, args);
    await this.ownership.require(streams.task(taskId), caller, 'task', taskId);
    const by = { workspaceId: caller.workspaceId, userId: caller.userId, trace: currentTrace() };
    const result = await this.commands.execute<ArchiveTask, TaskWriteResult>(new ArchiveTask(taskId, by));
    return {
      taskId,
      changed: result.changed,
      cancelledTurnId: null,
      consistencyToken: tokenForWrites(result.writes),
    };
  }

  @Mutation(() => ResolveCheckpointPayload, {
    description:
      "Your decision on one of a task's checkpoints: an approval authorizes exactly the call it names (a paid or irreversible tool call, an artefact deletion), and the waiting turn resumes. NOT_FOUND for an unknown task or checkpoint, and for another workspace's; CHECKPOINT_ALREADY_RESOLVED when it was decided otherwise before (the same decision again is a no-op).",
  })
  async resolveCheckpoint(
    @CurrentCaller() caller: Caller,
    @Args() args: ResolveCheckpointArgs,
  ): Promise<ResolveCheckpointPayload> {
    const { taskId, checkpointId, decision, note } = validate(resolveCheckpointSchema, args);
    await this.ownership.require(streams.task(taskId), caller, 'task', taskId);
    // The domain makes an approval repeat the call id its checkpoint names (never widened to
    // another call); the person names the checkpoint only, so the id is read from the stream.
    const checkpoint = await this.checkpointOf(taskId, checkpointId);
    const result = await this.commands.execute<ResolveCheckpoint, TaskCommandResult>(
      new ResolveCheckpoint({
        taskId,
        checkpointId,
        decision,
        resolvedBy: caller.userId,
        ...(checkpoint.callId !== null ? { callId: checkpoint.callId } : {}),
        ...(note !== undefined ? { answer: note } : {}),
      }),
    );
    return { taskId, checkpointId, changed: result.changed, consistencyToken: tokenForWrites(result.writes) };
  }

  private async checkpointOf(taskId: string, checkpointId: string) {
    // The runtime's own fold: it knows which resolutions count (the agent's never do).
    const task = await TaskView.load(this.store, taskId);
    const checkpoint = task.existing?.checkpoints[checkpointId];
    if (checkpoint === undefined) {
      throw new DomainError(TaskErrors.CHECKPOINT_NOT_FOUND, `No checkpoint ${checkpointId} in task ${taskId}`);
    }
    return checkpoint;
  }

  private interrupted(taskId: string, result: InterruptResult): TaskChangePayload {
    return {
      taskId,
      changed: result.changed,
      cancelledTurnId: result.cancelledTurnId ?? null,
      consistencyToken: tokenForWrites(result.writes),
    };
  }
}

const actorOf = (caller: Caller): Actor => ({ kind: 'user', userId: caller.userId });
