import { DomainError } from '../decider';
import type {
  ApprovePlanBudget,
  ChangeChecklistItem,
  NoticeArtifactChange,
  PlanChecklist,
  UpdateBrief,
} from './task-commands';
import { TaskErrors } from './task-errors';
import type { TaskEvent } from './task-events';
import { existing, invalid, notFinal } from './task-guards';
import type { TaskState } from './task-state';

export function updateBrief(command: UpdateBrief, state: TaskState): TaskEvent[] {
  const task = notFinal(state);
  if (task.brief?.text === command.brief) return [];
  const version = (task.brief?.version ?? 0) + 1;
  return [{ type: 'BriefUpdated', data: { version, brief: command.brief, by: command.by } }];
}

export function planChecklist(command: PlanChecklist, state: TaskState): TaskEvent[] {
  notFinal(state);
  const ids = new Set(command.items.map((i) => i.itemId));
  if (ids.size !== command.items.length) invalid('Checklist item ids are unique');
  const unknown = command.items.flatMap((i) => i.dependsOn).find((d) => !ids.has(d));
  if (unknown !== undefined) invalid(`A checklist item depends on unknown item ${unknown}`);
  const items = command.items.map(({ itemId, title, dependsOn }) => ({ itemId, title, dependsOn: [...dependsOn] }));
  return [{ type: 'ChecklistPlanned', data: { items } }];
}

export function changeChecklistItem(command: ChangeChecklistItem, state: TaskState): TaskEvent[] {
  const task = notFinal(state);
  const item = task.checklist.find((i) => i.itemId === command.itemId);
  if (!item) throw new DomainError(TaskErrors.CHECKLIST_ITEM_NOT_FOUND, `No checklist item ${command.itemId}`);
  if (item.status === command.status && (command.note === undefined || command.note === item.note)) return [];
  const { itemId, status, note } = command;
  return [{ type: 'ChecklistItemChanged', data: { itemId, status, ...(note !== undefined ? { note } : {}) } }];
}

export function approvePlanBudget(command: ApprovePlanBudget, state: TaskState): TaskEvent[] {
  const task = notFinal(state);
  if (task.budgets.some((b) => b.budgetId === command.budgetId)) return [];
  const { budgetId, amountMinor, currency, approvedBy } = command;
  return [{ type: 'PlanBudgetApproved', data: { budgetId, amountMinor, currency, approvedBy } }];
}

/** Recorded even on a final task: the artefact changed regardless, and nothing is woken by it. */
export function noticeArtifactChange(command: NoticeArtifactChange, state: TaskState): TaskEvent[] {
  const task = existing(state);
  if ((task.artifacts[command.artifactId] ?? 0) >= command.version) return [];
  const { artifactId, version, by } = command;
  return [{ type: 'ArtifactChangeNoticed', data: { artifactId, version, by } }];
}
