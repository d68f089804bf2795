import { DomainError } from '../decider';
import type {
  AppendHistorySegment,
  ExcludeContext,
  ExcludeHistorySegments,
  LoadToolDomains,
  NoteConstraints,
  UnloadToolDomains,
} from './task-commands';
import { TaskErrors } from './task-errors';
import type { TaskEvent } from './task-events';
import { existing, invalid, notFinal } from './task-guards';
import type { TaskState } from './task-state';

// What the task keeps for its context (article §6): domains the model loaded, the summarized
// history, the person's constraints. Every command is idempotent: a repeat decides nothing.

export function loadToolDomains(command: LoadToolDomains, state: TaskState): TaskEvent[] {
  const task = notFinal(state);
  const domains = [...new Set(command.domains)].filter((d) => !task.loadedDomains.includes(d));
  if (domains.length === 0) return [];
  return [{ type: 'ToolDomainsLoaded', data: { domains, turnId: command.turnId, step: command.step } }];
}

export function unloadToolDomains(command: UnloadToolDomains, state: TaskState): TaskEvent[] {
  const task = existing(state);
  const domains = [...new Set(command.domains)].filter((d) => task.loadedDomains.includes(d));
  if (domains.length === 0) return [];
  return [{ type: 'ToolDomainsUnloaded', data: { domains, reason: 'compression' } }];
}

/**
 * Append-only: a segment id is written once (the same segment again is a no-op, another with the
 * same id a conflict); what it supersedes must be segments still shown.
 */
export function appendHistorySegment(command: AppendHistorySegment, state: TaskState): TaskEvent[] {
  const task = existing(state);
  const known = task.segments.find((s) => s.segmentId === command.segmentId);
  if (known !== undefined) {
    if (known.text.hash === command.text.hash) return [];
    throw new DomainError(TaskErrors.SEGMENT_CONFLICT, `Segment ${command.segmentId} exists with other text`);
  }
  if (command.covers.steps < 1) invalid('A segment covers at least one step');
  for (const id of command.supersedes) {
    const superseded = task.segments.find((s) => s.segmentId === id);
    if (superseded === undefined || superseded.supersededBy !== null || superseded.excluded)
      throw new DomainError(TaskErrors.SEGMENT_CONFLICT, `Segment ${id} is not shown any more`);
  }
  const { segmentId, covers, text, tokens, summarizer, supersedes } = command;
  return [
    {
      type: 'HistorySegmentAppended',
      data: { segmentId, covers, text, tokens, summarizer, supersedes: [...supersedes] },
    },
  ];
}

export function excludeHistorySegments(command: ExcludeHistorySegments, state: TaskState): TaskEvent[] {
  const task = existing(state);
  const ids = command.segmentIds.filter((id) => {
    const segment = task.segments.find((s) => s.segmentId === id);
    if (segment === undefined) throw new DomainError(TaskErrors.SEGMENT_CONFLICT, `No segment ${id}`);
    return !segment.excluded;
  });
  if (ids.length === 0) return [];
  return [{ type: 'HistorySegmentsExcluded', data: { segmentIds: ids, reason: command.reason } }];
}

/**
 * Once per forgetting: a repeat decides nothing. Allowed on a finished task too, since a finished
 * task can be reopened or replayed and must not show forgotten content then either.
 */
export function excludeContext(command: ExcludeContext, state: TaskState): TaskEvent[] {
  const task = existing(state);
  if (task.excluded.forgettings.includes(command.forgettingId)) return [];
  const { forgettingId } = command;
  return [
    {
      type: 'ContextExcluded',
      data: {
        forgettingId,
        messageIds: [...command.messageIds],
        steps: command.steps.map((s) => ({ ...s })),
        ...(command.calls !== undefined && command.calls.length > 0 ? { calls: [...command.calls] } : {}),
      },
    },
  ];
}

/** Once per claimed item; a constraint replaces only one still in force. */
export function noteConstraints(command: NoteConstraints, state: TaskState): TaskEvent[] {
  const task = existing(state);
  if (command.constraints.length === 0) return [];
  if (Object.values(task.constraints).some((c) => c.itemId === command.itemId)) return [];
  for (const c of command.constraints)
    if (c.replaces !== undefined && task.constraints[c.replaces]?.withdrawnBy !== null)
      invalid(`Constraint ${c.replaces} is not in force`);
  const { itemId, turnId, step } = command;
  const constraints = command.constraints.map(({ constraintId, subject, statement, replaces }) => ({
    constraintId,
    subject,
    statement,
    ...(replaces !== undefined ? { replaces } : {}),
  }));
  return [{ type: 'ConstraintsNoted', data: { itemId, turnId, step, constraints } }];
}
