import type { EventDataMap } from '@lomo/contracts';
import type { ChecklistEvidence, ChecklistItemStatus } from './task-state';

/** What a checklist item's progress is, in the decider's state and in the tasks read model alike. */
export interface ItemProgress {
  status: ChecklistItemStatus;
  note: string | null;
  evidence: ChecklistEvidence | null;
  linkedArtifactIds: string[];
}

/**
 * One ChecklistItemChanged applied to an item. The task decider (task-evolve.ts) and the tasks
 * projection (libs/read-models/src/projections/tasks/task.evolve.ts) both fold with it, so they
 * cannot disagree about an item's status, note, evidence or links: a note is kept until a new
 * one, evidence shows an item done, so an item that is no longer done keeps none, and linked
 * artefacts accumulate (an item redone keeps what was made for it).
 */
export function withItemChange<I extends ItemProgress>(item: I, change: EventDataMap['ChecklistItemChanged']): I {
  const { status, note, evidence } = change;
  return {
    ...item,
    status,
    note: note ?? item.note,
    evidence: status === 'done' ? (evidence ?? item.evidence) : null,
    linkedArtifactIds: linked(item.linkedArtifactIds, [
      ...(evidence?.kind === 'artifact_version' ? [evidence.artifactId] : []),
      ...(change.linkedArtifactIds ?? []),
    ]),
  };
}

/** The links so far, then new ones in order, each once; the same array when nothing is new. */
export function linked(current: string[], more: readonly string[]): string[] {
  const fresh = more.filter((id, i) => !current.includes(id) && more.indexOf(id) === i);
  return fresh.length === 0 ? current : [...current, ...fresh];
}
