import type { InboxItemDocument, TaskDocument } from '@lomo/read-models';
import type {
  CheckpointCard,
  ChecklistEvidence,
  ChecklistItem,
  ChecklistItemOutput,
  InboxItem,
  Task,
} from '../types/task.types';

type DocumentCheckpoint = TaskDocument['checkpoints'][number];
type DocumentItem = TaskDocument['checklist'][number];

function mapEvidence(e: NonNullable<DocumentItem['evidence']>): ChecklistEvidence {
  return {
    kind: e.kind,
    artifactId: e.kind === 'artifact_version' ? e.artifactId : null,
    version: e.kind === 'artifact_version' ? e.version : null,
    jobId: e.kind === 'job' ? e.jobId : null,
    jobIds: e.kind === 'jobs' ? [...e.jobIds] : null,
    checkpointId: e.kind === 'review' ? e.checkpointId : null,
  };
}

function mapOutput(o: NonNullable<DocumentItem['output']>): ChecklistItemOutput {
  return {
    kind: o.kind,
    media: o.kind === 'media' ? o.media : null,
    count: o.kind === 'media' ? o.count : null,
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
    // Documents of an older tasks version lack the fields until the rebuild replaces them.
    output: i.output == null ? null : mapOutput(i.output),
    linkedArtifactIds: [...(i.linkedArtifactIds ?? [])],
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
    callQuote: c.callQuote == null ? null : { ...c.callQuote },
    planQuote: c.planQuote == null ? null : { ...c.planQuote, lines: c.planQuote.lines.map((l) => ({ ...l })) },
    openedAt: c.openedAt,
    resolution: c.resolution === null ? null : { ...c.resolution },
  };
}

/**
 * The task's plan budgets per currency, in the order each currency was first approved: their sum
 * and each approval (approvePlanBudget, or a BUDGET card the person approved).
 */
function approvedBudgets(d: TaskDocument): Task['approvedBudgets'] {
  const byCurrency = new Map<string, Task['approvedBudgets'][number]>();
  for (const b of d.planBudgets ?? []) {
    const entry = byCurrency.get(b.currency) ?? { currency: b.currency, approvedMinor: 0, approvals: [] };
    entry.approvedMinor += b.amountMinor;
    entry.approvals.push({
      budgetId: b.budgetId,
      amountMinor: b.amountMinor,
      approvedBy: b.approvedBy,
      approvedAt: b.approvedAt ?? null,
      checkpointId: b.checkpointId ?? null,
    });
    byCurrency.set(b.currency, entry);
  }
  return [...byCurrency.values()];
}

export function mapTask(d: TaskDocument): Task {
  const checkpoints = (d.checkpoints ?? []).map((c) => mapCheckpoint(d._id, c));
  return {
    id: d._id,
    goal: d.goal,
    kind: d.kind,
    summary: d.summary,
    mergedInto: d.mergedInto,
    forkOf:
      d.forkOf == null
        ? null
        : {
            taskId: d.forkOf.taskId,
            revision: d.forkOf.revision,
            position: d.forkOf.position,
            armedTools: d.forkOf.armedTools === 'all' ? ['all'] : [...d.forkOf.armedTools],
          },
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
