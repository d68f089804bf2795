import { Inject } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { Args, Mutation, Resolver } from '@nestjs/graphql';
import { ApiError, ApiErrorCodes, streams, validationFailed, type Actor } from '@lomo/contracts';
import { EVENT_STORE, type EventStore } from '@lomo/eventstore';
import { TaskErrors, DomainError } from '@lomo/domain';
import {
  EvidenceRefusedError,
  TaskView,
  type InterruptResult,
  type ResolveCheckpointRequest,
  type TaskCommandResult,
} from '@lomo/runtime';
import {
  ApproveTaskPlanBudget,
  EditBrief,
  EditChecklist,
  SetAutonomy,
  SetChecklistItemStatus,
  type PersonOnTask,
  type PlanBudgetResult,
  type PlanWriteResult,
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
  ApprovePlanBudgetArgs,
  EditBriefArgs,
  EditChecklistArgs,
  ResolveCheckpointArgs,
  SetAutonomyArgs,
  SetChecklistItemStatusArgs,
  TaskArgs,
  TaskWithReasonArgs,
  approvePlanBudgetSchema,
  editBriefSchema,
  editChecklistSchema,
  resolveCheckpointSchema,
  setAutonomySchema,
  setChecklistItemStatusSchema,
  taskSchema,
  taskWithReasonSchema,
} from '../args/mutation.args';
import {
  ApprovePlanBudgetPayload,
  ResolveCheckpointPayload,
  TaskChangePayload,
  TaskPlanPayload,
} from '../types/payloads';

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
      "Your decision on one of a task's checkpoints: an approval authorizes exactly the call it names (a paid or irreversible tool call, an artefact deletion) at the price it showed; approving a BUDGET card approves its plan quote as the plan budget; ANSWER answers a question (note); ADJUST sends a reviewed stage back with your note; CHOOSE picks one of the card's options (choice). The waiting turn resumes. NOT_FOUND for an unknown task or checkpoint, and for another workspace's; VALIDATION_FAILED for a choice the card does not offer; FORBIDDEN for a token that is not a person's on any card but a QUESTION; INVALID_DECISION for a decision the card's kind does not take; CHECKPOINT_ALREADY_RESOLVED when it was decided before.",
  })
  async resolveCheckpoint(
    @CurrentCaller() caller: Caller,
    @Args() args: ResolveCheckpointArgs,
  ): Promise<ResolveCheckpointPayload> {
    const { taskId, checkpointId, decision, note, choice } = validate(resolveCheckpointSchema, args);
    await this.ownership.require(streams.task(taskId), caller, 'task', taskId);
    // The domain makes an approval repeat the call id its checkpoint names (never widened to
    // another call); the person names the checkpoint only, so the id is read from the stream.
    const checkpoint = await this.checkpointOf(taskId, checkpointId);
    if (choice !== undefined && !checkpoint.options.some((o) => o.optionId === choice)) {
      const offered = checkpoint.options.map((o) => o.optionId);
      throw validationFailed([
        {
          path: 'choice',
          message:
            offered.length === 0
              ? 'this card offers no options to choose from'
              : `not an option of this card (one of: ${offered.join(', ')})`,
        },
      ]);
    }
    const request: ResolveCheckpointRequest = {
      taskId,
      checkpointId,
      decision,
      resolvedBy: caller.userId,
      ...(checkpoint.callId !== null ? { callId: checkpoint.callId } : {}),
      ...(note !== undefined ? { answer: note } : {}),
      ...(choice !== undefined ? { choice } : {}),
    };
    // Authorization is the person's (DESIGN.md §5): an integration's or an operator's token may
    // answer a question, never approve a call, spend money or decide a review. The approval of a
    // paid call's card is applied to its job by the generation service, from this one event.
    if (caller.kind !== 'person' && checkpoint.kind !== 'question')
      throw new ApiError(ApiErrorCodes.FORBIDDEN, 'Only a person decides approval, review and budget cards', {
        tokenKind: caller.kind,
      });
    const result = await this.commands.execute<ResolveCheckpoint, TaskCommandResult>(new ResolveCheckpoint(request));
    return { taskId, checkpointId, changed: result.changed, consistencyToken: tokenForWrites(result.writes) };
  }

  @Mutation(() => TaskPlanPayload, {
    description:
      "Rewrites the task's brief as you (a new brief version); the same text again changes nothing. NOT_FOUND for another workspace's task; TASK_STOPPED / TASK_CLOSED for a task that ended.",
  })
  async editBrief(@CurrentCaller() caller: Caller, @Args() args: EditBriefArgs): Promise<TaskPlanPayload> {
    const { taskId, brief } = validate(editBriefSchema, args);
    await this.ownership.require(streams.task(taskId), caller, 'task', taskId);
    return this.planned(
      await this.commands.execute<EditBrief, PlanWriteResult>(new EditBrief(on(caller, taskId), brief)),
    );
  }

  @Mutation(() => TaskPlanPayload, {
    description:
      "Re-plans the task's checklist as you: the whole plan, in order, each item with what it delivers (output) if you say. Items that keep their id keep their status, note, evidence and linked artefacts; new ones start pending. VALIDATION_FAILED for duplicate ids, a dependency outside the plan or an output that is not ARTIFACT, DECISION or MEDIA with its media and count; NOT_FOUND for another workspace's task.",
  })
  async editChecklist(@CurrentCaller() caller: Caller, @Args() args: EditChecklistArgs): Promise<TaskPlanPayload> {
    const { taskId, items } = validate(editChecklistSchema, args);
    await this.ownership.require(streams.task(taskId), caller, 'task', taskId);
    return this.planned(
      await this.commands.execute<EditChecklist, PlanWriteResult>(new EditChecklist(on(caller, taskId), items)),
    );
  }

  @Mutation(() => TaskPlanPayload, {
    description:
      "Sets one checklist item's status as you (PENDING, IN_PROGRESS, BLOCKED, SKIPPED, or DONE on your word), with an optional note. CHECKLIST_ITEM_NOT_FOUND for an id the plan does not hold; NOT_FOUND for another workspace's task.",
  })
  async setChecklistItemStatus(
    @CurrentCaller() caller: Caller,
    @Args() args: SetChecklistItemStatusArgs,
  ): Promise<TaskPlanPayload> {
    const { taskId, itemId, status, note } = validate(setChecklistItemStatusSchema, args);
    await this.ownership.require(streams.task(taskId), caller, 'task', taskId);
    try {
      return this.planned(
        await this.commands.execute<SetChecklistItemStatus, PlanWriteResult>(
          new SetChecklistItemStatus(on(caller, taskId), itemId, status, note),
        ),
      );
    } catch (error) {
      // The runtime's evidence rule refuses with its own error class: typed here like the domain's.
      if (error instanceof EvidenceRefusedError) throw new DomainError(error.code, error.message);
      throw error;
    }
  }

  @Mutation(() => TaskPlanPayload, {
    description:
      "Sets how far the agent goes by itself on the task (see AutonomyLevel); the same level again changes nothing. NOT_FOUND for another workspace's task.",
  })
  async setAutonomy(@CurrentCaller() caller: Caller, @Args() args: SetAutonomyArgs): Promise<TaskPlanPayload> {
    const { taskId, level } = validate(setAutonomySchema, args);
    await this.ownership.require(streams.task(taskId), caller, 'task', taskId);
    return this.planned(
      await this.commands.execute<SetAutonomy, PlanWriteResult>(new SetAutonomy(on(caller, taskId), level)),
    );
  }

  @Mutation(() => ApprovePlanBudgetPayload, {
    description:
      "Approves money for the task's plan as you: recorded on the task (Task.planBudget) and approved on your account as this task's budget, so its paid work may spend it. A retry with the same idempotencyKey approves once; the same key with another amount is ACCOUNT_BUDGET_CONFLICT. NOT_FOUND for another workspace's task; FORBIDDEN for tokens that are not a person's.",
  })
  async approvePlanBudget(
    @CurrentCaller() caller: Caller,
    @Args() args: ApprovePlanBudgetArgs,
  ): Promise<ApprovePlanBudgetPayload> {
    const { taskId, amountMinor, currency, idempotencyKey } = validate(approvePlanBudgetSchema, args);
    // As approveBudget: an integration's paid work is confirmed by a person, an operator does not spend.
    if (caller.kind !== 'person')
      throw new ApiError(ApiErrorCodes.FORBIDDEN, 'Only a person approves a budget', { tokenKind: caller.kind });
    await this.ownership.require(streams.task(taskId), caller, 'task', taskId);
    const result = await this.commands.execute<ApproveTaskPlanBudget, PlanBudgetResult>(
      new ApproveTaskPlanBudget(on(caller, taskId), amountMinor, currency, idempotencyKey),
    );
    return {
      taskId,
      budgetId: result.budgetId,
      changed: result.changed,
      consistencyToken: tokenForWrites(result.writes),
    };
  }

  private planned(result: PlanWriteResult): TaskPlanPayload {
    return { taskId: result.taskId, changed: result.changed, consistencyToken: tokenForWrites(result.writes) };
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

const on = (caller: Caller, taskId: string): PersonOnTask => ({
  taskId,
  workspaceId: caller.workspaceId,
  userId: caller.userId,
});
