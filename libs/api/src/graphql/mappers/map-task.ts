import type { InboxItemDocument, TaskDocument } from '@lomo/read-models';
import type { CheckpointCard, ChecklistEvidence, ChecklistItem, InboxItem, Task } from '../types/task.types';

type DocumentCheckpoint = TaskDocument['checkpoints'][number];
type DocumentItem = TaskDocument['checklist'][number];

function mapEvidence(e: NonNullable<DocumentItem['evidence']>): ChecklistEvidence {
  return {
    kind: e.kind,
    artifactId: e.kind === 'artifact_version' ? e.artifactId : null,
    version: e.kind === 'artifact_version' ? e.version : null,
    jobId: e.kind === 'job' ? e.jobId : null,
    checkpointId: e.kind === 'review' ? e.checkpointId : null,
  };
}

function mapChecklistItem(i: DocumentItem): ChecklistItem {
  return {
    itemId: i.itemId,
    title: i.title,
    dependsOn: [...i.dependsOn],
    status: i.status,
    note: i.note,
    needsConfirmation: i.needsConfirmation,
    evidence: i.evidence === null ? null : mapEvidence(i.evidence),
  };
}

export function mapCheckpoint(taskId: string, c: DocumentCheckpoint): CheckpointCard {
  return {
    checkpointId: c.checkpointId,
    taskId,
    kind: c.kind,
    question: c.question,
    itemId: c.itemId,
    callId: c.callId,
    options: c.options.map(({ optionId, label }) => ({ optionId, label })),
    openedAt: c.openedAt,
    resolution: c.resolution === null ? null : { ...c.resolution },
  };
}

/** The sum of the task's plan budgets per currency, in the order each currency was first approved. */
function approvedBudgets(d: TaskDocument): Task['approvedBudgets'] {
  const byCurrency = new Map<string, number>();
  for (const b of d.planBudgets ?? []) byCurrency.set(b.currency, (byCurrency.get(b.currency) ?? 0) + b.amountMinor);
  return [...byCurrency].map(([currency, approvedMinor]) => ({ currency, approvedMinor }));
}

export function mapTask(d: TaskDocument): Task {
  const checkpoints = (d.checkpoints ?? []).map((c) => mapCheckpoint(d._id, c));
  return {
    id: d._id,
    goal: d.goal,
    kind: d.kind,
    summary: d.summary,
    mergedInto: d.mergedInto,
    status: d.status,
    language: d.language,
    originMessageId: d.originMessageId,
    createdAt: d.createdAt,
    lastActivityAt: d.lastActivityAt,
    activeTurnId: d.activeTurnId,
    activeTurnSummary: d.activeTurn,
    openCheckpoints: d.openCheckpoints,
    lastContinuation: d.lastContinuation ?? null,
    brief: d.brief ?? null,
    checklist: (d.checklist ?? []).map(mapChecklistItem),
    autonomy: d.autonomy ?? 'assisted',
    pendingCheckpoints: checkpoints.filter((c) => c.resolution === null),
    allCheckpoints: checkpoints,
    approvedBudgets: approvedBudgets(d),
    counts: d.counts,
  };
}

export function mapInboxItem(d: InboxItemDocument): InboxItem {
  return {
    // The document id is `{taskId}:{itemId}`; the item id is the message id.
    id: d.itemId,
    taskId: d.taskId,
    messageId: d.messageId,
    text: d.text,
    language: d.language,
    status: d.status,
    claimedAt: d.claimedAt,
    consumedAt: d.consumedAt,
    replacements: d.replacements,
    movedTo: d.movedTo,
    movedFrom: d.movedFrom,
    deliveredAt: d.deliveredAt,
    updatedAt: d.updatedAt,
  };
}
