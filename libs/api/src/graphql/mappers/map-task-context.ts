import type { Constraint, HistorySegment as DomainSegment } from '@lomo/domain';
import type { HistorySegment, TaskConstraint } from '../types/task-context.types';

export function mapHistorySegment(s: DomainSegment): HistorySegment {
  return {
    id: s.segmentId,
    covers: { from: { ...s.covers.from }, to: { ...s.covers.to }, steps: s.covers.steps },
    tokens: s.tokens,
    summarizer: s.summarizer,
    supersedes: [...s.supersedes],
    supersededBy: s.supersededBy,
    excluded: s.excluded,
    // The runtime's rule for a shown segment (libs/runtime/src/context/history.ts activeSegments).
    shown: s.supersededBy === null && !s.excluded,
    textRef: { ...s.text },
  };
}

export function mapConstraint(c: Constraint): TaskConstraint {
  return {
    id: c.constraintId,
    subject: c.subject,
    statement: c.statement,
    itemId: c.itemId,
    inForce: c.withdrawnBy === null,
    withdrawnBy: c.withdrawnBy,
  };
}
