import { Inject } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { Args, Mutation, Resolver } from '@nestjs/graphql';
import { streams, type Actor } from '@lomo/contracts';
import { EVENT_STORE, type EventStore } from '@lomo/eventstore';
import type { InterruptResult, TaskCommandResult } from '@lomo/runtime';
import { PauseTask, ResumeTask, StopTask, ArchiveTask, type TaskWriteResult } from '@lomo/application';
import type { Caller } from '@lomo/auth';
import { CurrentCaller } from '../../auth/current-caller.decorator';
import { currentTrace } from '../../consistency/current-trace';
import { tokenForWrites } from '../../consistency/token-for-writes';
import { StreamOwnership } from '../../tenancy/stream-ownership';
import { validate } from '../args/input-schemas';
import { TaskArgs, TaskWithReasonArgs, taskSchema, taskWithReasonSchema } from '../args/mutation.args';
import { TaskChangePayload } from '../types/payloads';

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
