import type { EventDataMap } from '@lomo/contracts';
import type { ChecklistEvidence, ChecklistItemStatus } from './task-state';

/** What a checklist item's progress is, in the decider's state and in the tasks read model alike. */
export interface ItemProgress {
  status: ChecklistItemStatus;
  note: string | null;
  evidence: ChecklistEvidence | null;
}

/**
 * One ChecklistItemChanged applied to an item. The task decider (task-evolve.ts) and the tasks
 * projection (libs/read-models/src/projections/tasks/task.evolve.ts) both fold with it, so they
 * cannot disagree about an item's status, note or evidence: a note is kept until a new one, and
 * evidence shows an item done, so an item that is no longer done keeps none.
 */
export function withItemChange<I extends ItemProgress>(item: I, change: EventDataMap['ChecklistItemChanged']): I {
  const { status, note, evidence } = change;
  return {
    ...item,
    status,
    note: note ?? item.note,
    evidence: status === 'done' ? (evidence ?? item.evidence) : null,
  };
}
