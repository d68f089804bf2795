import { assertNever, DomainError } from '../decider';
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
import type { ChecklistEvidence, ChecklistItem, ChecklistItemOutput, TaskState } from './task-state';

export function updateBrief(command: UpdateBrief, state: TaskState): TaskEvent[] {
  const task = notFinal(state);
  if (task.brief?.text === command.brief) return [];
  const version = (task.brief?.version ?? 0) + 1;
  const data = { version, brief: command.brief, by: command.by };
  return [{ type: 'BriefUpdated', data: command.callId === undefined ? data : { ...data, callId: command.callId } }];
}

type Planned = Omit<PlanChecklist['items'][number], 'output'> & { output?: ChecklistItemOutput | null };

const samePlan = (current: readonly Planned[], next: readonly Planned[]): boolean =>
  current.length === next.length &&
  current.every(
    (item, i) =>
      item.itemId === next[i].itemId &&
      item.title === next[i].title &&
      (item.needsConfirmation === true) === (next[i].needsConfirmation === true) &&
      JSON.stringify(item.output ?? null) === JSON.stringify(next[i].output ?? null) &&
      item.dependsOn.length === next[i].dependsOn.length &&
      item.dependsOn.every((d, j) => d === next[i].dependsOn[j]),
  );

/** Re-planning the same plan again (a retry, a double click) is a no-op; rewording is not progress either way. */
export function planChecklist(command: PlanChecklist, state: TaskState): TaskEvent[] {
  const task = notFinal(state);
  const ids = new Set(command.items.map((i) => i.itemId));
  if (ids.size !== command.items.length) invalid('Checklist item ids are unique');
  const unknown = command.items.flatMap((i) => i.dependsOn).find((d) => !ids.has(d));
  if (unknown !== undefined) invalid(`A checklist item depends on unknown item ${unknown}`);
  const kept = (itemId: string) => task.checklist.find((i) => i.itemId === itemId)?.output ?? undefined;
  const planned = command.items.map((item) =>
    item.output === undefined && command.keepOutputs === true ? { ...item, output: kept(item.itemId) } : item,
  );
  if (samePlan(task.checklist, planned)) return [];
  const items = planned.map(({ itemId, title, dependsOn, needsConfirmation, output }) => ({
    itemId,
    title,
    dependsOn: [...dependsOn],
    ...(needsConfirmation === true ? { needsConfirmation: true } : {}),
    ...(output !== undefined ? { output: { ...output } } : {}),
  }));
  return [
    { type: 'ChecklistPlanned', data: command.callId === undefined ? { items } : { items, callId: command.callId } },
  ];
}

export function changeChecklistItem(command: ChangeChecklistItem, state: TaskState): TaskEvent[] {
  const task = notFinal(state);
  const item = task.checklist.find((i) => i.itemId === command.itemId);
  if (!item) throw new DomainError(TaskErrors.CHECKLIST_ITEM_NOT_FOUND, `No checklist item ${command.itemId}`);
  if (command.evidence !== undefined) evidenceMatchesOutput(item, command.evidence);
  const sameEvidence =
    command.evidence === undefined || JSON.stringify(command.evidence) === JSON.stringify(item.evidence);
  const links = (command.linkedArtifactIds ?? []).filter((id) => !item.linkedArtifactIds.includes(id));
  if (
    item.status === command.status &&
    (command.note === undefined || command.note === item.note) &&
    sameEvidence &&
    links.length === 0
  )
    return [];
  const { itemId, status, note, evidence } = command;
  return [
    {
      type: 'ChecklistItemChanged',
      data: {
        itemId,
        status,
        ...(note !== undefined ? { note } : {}),
        ...(evidence !== undefined ? { evidence } : {}),
        ...(links.length > 0 ? { linkedArtifactIds: [...new Set(links)] } : {}),
      },
    },
  ];
}

/**
 * Evidence shows an item done only when it is what the item declared it delivers: an artefact
 * version for an artefact, that many completed jobs for media (the jobs themselves are checked on
 * their streams by the caller), the person's review for a decision. An item without a declared
 * output takes any kind.
 */
function evidenceMatchesOutput(item: ChecklistItem, evidence: ChecklistEvidence): void {
  const output = item.output;
  if (output === null) return;
  const refuse = (message: string) => {
    throw new DomainError(TaskErrors.EVIDENCE_MISMATCH, message);
  };
  switch (output.kind) {
    case 'artifact':
      if (evidence.kind !== 'artifact_version') refuse(`Item ${item.itemId} delivers an artefact version`);
      return;
    case 'decision':
      if (evidence.kind !== 'review') refuse(`Item ${item.itemId} is the person's decision: a resolved review card`);
      return;
    case 'media': {
      const jobs = evidence.kind === 'job' ? 1 : evidence.kind === 'jobs' ? evidence.jobIds.length : 0;
      if (jobs < output.count)
        refuse(
          `Item ${item.itemId} delivers ${output.count} ${output.media} job${output.count === 1 ? '' : 's'}: the evidence names ${jobs}`,
        );
      return;
    }
    default:
      assertNever(output, 'checklist item output');
  }
}

export function approvePlanBudget(command: ApprovePlanBudget, state: TaskState): TaskEvent[] {
  const task = notFinal(state);
  if (task.budgets.some((b) => b.budgetId === command.budgetId)) return [];
  const { budgetId, amountMinor, currency, approvedBy } = command;
  return [{ type: 'PlanBudgetApproved', data: { budgetId, amountMinor, currency, approvedBy } }];
}

const MAX_SUMMARY = 2000;

function joinSummaries(a: string, b: string): string {
  const joined = a === '' || a === b ? b : b === '' ? a : `${a}; ${b}`;
  return joined.length > MAX_SUMMARY ? `${joined.slice(0, MAX_SUMMARY - 1)}…` : joined;
}

/**
 * Coalescing (article §9.2: dragging nodes must not flood the agent): at most one open notice per
 * (task, artefact). While one is open a newer version widens it; a version an open or a closed
 * (consumed) notice already reached is a no-op, and so is a repeat of the same notice id, so a
 * fan-out repeated after a crash changes nothing. A new notice starts where the last consumed one
 * ended when the task was told about that span already. Recorded even on a final task: the
 * artefact changed regardless, and nothing is woken by it.
 */
export function noticeArtifactChange(command: NoticeArtifactChange, state: TaskState): TaskEvent[] {
  const task = existing(state);
  const { noticeId, artifactId, fromVersion, toVersion, by, summary } = command;
  if (!Number.isInteger(toVersion) || !Number.isInteger(fromVersion) || fromVersion < 0 || toVersion <= fromVersion)
    invalid('A change notice spans from a version to a later one');
  if (task.notices[noticeId]) return [];
  const ofArtifact = Object.values(task.notices).filter((n) => n.artifactId === artifactId);
  const open = ofArtifact.find((n) => n.consumedBy === null);
  const nodes = [...new Set(command.nodes)];
  if (open) {
    if (open.toVersion >= toVersion) return [];
    const spanNodes = [...new Set([...open.nodes, ...nodes])];
    // The command's span covers the open one's when it starts no later; otherwise both are needed.
    const spanSummary = fromVersion <= open.fromVersion ? summary : joinSummaries(open.summary, summary);
    return [
      {
        type: 'ArtifactChangeNoticeWidened',
        data: { noticeId: open.noticeId, toVersion, by, nodes: spanNodes, summary: spanSummary },
      },
    ];
  }
  const toldUpTo = Math.max(0, ...ofArtifact.map((n) => n.toVersion));
  if (toldUpTo >= toVersion) return [];
  const from = Math.max(fromVersion, toldUpTo);
  return [
    {
      type: 'ArtifactChangeNoticed',
      data: { noticeId, artifactId, fromVersion: from, toVersion, by, nodes, summary: joinSummaries('', summary) },
    },
  ];
}
