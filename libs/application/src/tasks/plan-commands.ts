import type { StreamWrite } from '@lomo/command-handling';
import type { AutonomyLevel, ChecklistItemOutput, ChecklistItemStatus } from '@lomo/domain';

/** The person (by user id) acting on a task of their workspace through the API. */
export interface PersonOnTask {
  readonly taskId: string;
  readonly workspaceId: string;
  readonly userId: string;
}

/** The person rewrites the task's brief (the approved direction); the same text again is a no-op. */
export class EditBrief {
  constructor(
    readonly on: PersonOnTask,
    readonly brief: string,
  ) {}
}

export interface PlannedItem {
  readonly itemId: string;
  readonly title: string;
  readonly dependsOn: readonly string[];
  readonly needsConfirmation?: boolean;
  /** What the item delivers; absent: what the plan said before for this id stays. */
  readonly output?: ChecklistItemOutput;
}

/** The person re-plans the checklist; items of the same id keep their status and evidence. */
export class EditChecklist {
  constructor(
    readonly on: PersonOnTask,
    readonly items: readonly PlannedItem[],
  ) {}
}

/** The person sets one checklist item's status (and note). */
export class SetChecklistItemStatus {
  constructor(
    readonly on: PersonOnTask,
    readonly itemId: string,
    readonly status: ChecklistItemStatus,
    readonly note?: string,
  ) {}
}

/** How far the agent goes by itself: manual, assisted or autonomous. */
export class SetAutonomy {
  constructor(
    readonly on: PersonOnTask,
    readonly level: AutonomyLevel,
  ) {}
}

/**
 * The person approves money for the task's plan: recorded on the task (PlanBudgetApproved) and
 * approved on the workspace's account as the task's budget (BudgetApproved with taskId), so paid
 * work of the task may spend it. One idempotency key = one budget on both streams.
 */
export class ApproveTaskPlanBudget {
  constructor(
    readonly on: PersonOnTask,
    readonly amountMinor: number,
    readonly currency: string,
    readonly idempotencyKey: string,
  ) {}
}

export interface PlanWriteResult {
  taskId: string;
  changed: boolean;
  writes: StreamWrite[];
}

export interface PlanBudgetResult extends PlanWriteResult {
  /** The same on the task and the account; derived from the task and the key. */
  budgetId: string;
}
