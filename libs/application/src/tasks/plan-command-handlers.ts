import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AggregateStream, handleCommand } from '@lomo/command-handling';
import { CLOCK, streams, type Clock } from '@lomo/contracts';
import { taskDecider, taskEventTypes, type TaskCommand } from '@lomo/domain';
import { approveBudget, budgetIdFor } from '@lomo/generation';
import { changeChecklistItem, planChecklist, updateBrief, type CommandDeps, type PlanAuthor } from '@lomo/runtime';
import { COMMAND_DEPS } from '../executor/executor-tokens';
import {
  ApproveTaskPlanBudget,
  EditBrief,
  EditChecklist,
  SetAutonomy,
  SetChecklistItemStatus,
  type PersonOnTask,
  type PlanBudgetResult,
  type PlanWriteResult,
} from './plan-commands';
import { inWorkspace, userActor, writeMetadata } from './task-in-workspace';

// The person's edits of a task's plan. Brief, checklist and item status go through the runtime's
// plan commands (the agent's plan tools use the same ones), with the person as actor; autonomy
// and the plan budget are decided here on the task stream. Every one refuses a task of another
// workspace as TASK_NOT_FOUND, before anything is decided.

const author = (on: PersonOnTask): PlanAuthor => ({ actor: userActor(on.userId) });
const target = (on: PersonOnTask) => ({ workspaceId: on.workspaceId, taskId: on.taskId, by: author(on) });

function decideOnTask(deps: Pick<CommandDeps, 'store' | 'ids'>, on: PersonOnTask, command: TaskCommand) {
  return handleCommand(deps.store, streams.task(on.taskId), taskDecider, command, {
    eventTypes: taskEventTypes,
    ids: deps.ids,
    guard: inWorkspace(on.taskId, on.workspaceId),
    metadata: writeMetadata(on.workspaceId, userActor(on.userId), on.taskId),
  });
}

@CommandHandler(EditBrief)
export class EditBriefHandler implements ICommandHandler<EditBrief, PlanWriteResult> {
  constructor(@Inject(COMMAND_DEPS) private readonly deps: CommandDeps) {}

  async execute(c: EditBrief): Promise<PlanWriteResult> {
    const result = await updateBrief(this.deps, { ...target(c.on), brief: c.brief });
    return { taskId: c.on.taskId, changed: result.changed, writes: [...result.writes] };
  }
}

@CommandHandler(EditChecklist)
export class EditChecklistHandler implements ICommandHandler<EditChecklist, PlanWriteResult> {
  constructor(@Inject(COMMAND_DEPS) private readonly deps: CommandDeps) {}

  async execute(c: EditChecklist): Promise<PlanWriteResult> {
    const items = c.items.map(({ itemId, title, dependsOn, needsConfirmation, output }) => ({
      itemId,
      title,
      dependsOn: [...dependsOn],
      ...(needsConfirmation === true ? { needsConfirmation: true } : {}),
      ...(output !== undefined ? { output } : {}),
    }));
    // The same plan again (a lost response, a double click) is a no-op in the decider; an item
    // the person sends without an output keeps the one the plan declared for it.
    const result = await planChecklist(this.deps, { ...target(c.on), items, keepOutputs: true });
    return { taskId: c.on.taskId, changed: result.changed, writes: [...result.writes] };
  }
}

@CommandHandler(SetChecklistItemStatus)
export class SetChecklistItemStatusHandler implements ICommandHandler<SetChecklistItemStatus, PlanWriteResult> {
  constructor(@Inject(COMMAND_DEPS) private readonly deps: CommandDeps) {}

  async execute(c: SetChecklistItemStatus): Promise<PlanWriteResult> {
    const result = await changeChecklistItem(this.deps, {
      ...target(c.on),
      itemId: c.itemId,
      status: c.status,
      ...(c.note !== undefined ? { note: c.note } : {}),
    });
    return { taskId: c.on.taskId, changed: result.changed, writes: [...result.writes] };
  }
}

@CommandHandler(SetAutonomy)
export class SetAutonomyHandler implements ICommandHandler<SetAutonomy, PlanWriteResult> {
  constructor(@Inject(COMMAND_DEPS) private readonly deps: CommandDeps) {}

  async execute(c: SetAutonomy): Promise<PlanWriteResult> {
    const result = await decideOnTask(this.deps, c.on, { type: 'ChangeAutonomy', level: c.level, by: c.on.userId });
    return { taskId: c.on.taskId, changed: result.changed, writes: [...result.writes] };
  }
}

/** The task's plan budget and the account's request key share one derivation: one key, one budget. */
export const planBudgetRequestKey = (taskId: string, idempotencyKey: string) => `task-plan:${taskId}:${idempotencyKey}`;

/**
 * Two streams, two appends: the store has no transaction across streams. The task is checked
 * first (of this workspace, not final: the decider is asked without appending), then the money is
 * approved on the account, then the task records it. Both writes are keyed by the same budget id,
 * so a crash between them leaves a state that a retry with the same key completes (the account's
 * approval is then a no-op and the task's is written), and a repeat after both is a no-op. A key
 * reused with another amount is refused by the account (ACCOUNT_BUDGET_CONFLICT) before the task is touched.
 */
@CommandHandler(ApproveTaskPlanBudget)
export class ApproveTaskPlanBudgetHandler implements ICommandHandler<ApproveTaskPlanBudget, PlanBudgetResult> {
  constructor(
    @Inject(COMMAND_DEPS) private readonly deps: CommandDeps,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(c: ApproveTaskPlanBudget): Promise<PlanBudgetResult> {
    const { taskId, workspaceId, userId } = c.on;
    const requestKey = planBudgetRequestKey(taskId, c.idempotencyKey);
    const budgetId = budgetIdFor(workspaceId, requestKey);
    const command: TaskCommand = {
      type: 'ApprovePlanBudget',
      budgetId,
      amountMinor: c.amountMinor,
      currency: c.currency,
      approvedBy: userId,
    };
    // Refusals first (another workspace's task, a stopped one), so no money is approved for them.
    const task = await AggregateStream.read(this.deps.store, streams.task(taskId), taskDecider, taskEventTypes);
    inWorkspace(taskId, workspaceId)(task);
    taskDecider.decide(command, task.state);

    const account = await approveBudget(
      { store: this.deps.store, ids: this.deps.ids, clock: this.clock },
      { workspaceId, userId, amountMinor: c.amountMinor, currency: c.currency, taskId, requestKey },
    );
    const recorded = await decideOnTask(this.deps, c.on, command);
    return {
      taskId,
      budgetId,
      changed: account.changed || recorded.changed,
      writes: [...account.writes, ...recorded.writes],
    };
  }
}
