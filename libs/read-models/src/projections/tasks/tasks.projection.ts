import { taskEventTypes } from '@lomo/domain';
import type { KnownEventType, KnownEvent } from '../engine/known-event';
import type { ProjectionContext, ProjectionDefinition } from '../engine/projection-definition';
import { entityIdOf } from '../engine/stream-revisions';
import type { TaskDocument } from './task.document';
import { blankTask, deriveTask, evolveTaskDocument } from './task.evolve';

const fromTask = { owner: 'stream', category: 'task' } as const;

const turnActivityEvents: readonly KnownEventType[] = [
  'TurnStarted',
  'TurnLeased',
  'ModelStepCommitted',
  'TurnWaiting',
  'TurnResumed',
  'TurnCompleted',
  'TurnFailed',
  'TurnCancelled',
];

function taskDocumentIds(
  event: KnownEvent,
  context: ProjectionContext,
): readonly string[] | Promise<readonly string[]> {
  const streamId = event.metadata.streamId;
  if (streamId.startsWith('task-')) return [entityIdOf(streamId)];
  if (event.type === 'TurnStarted') return [event.data.taskId];
  const turnId = entityIdOf(streamId);
  const known = context.knownTaskOfTurn(turnId);
  if (known !== undefined) return [known];
  return context.taskOfTurn(turnId).then((taskId) => (taskId === undefined ? [] : [taskId]));
}

/**
 * Tasks, listed by `tasks(status, kind, first, after)`: scoped by workspace, newest activity
 * first. Each index ends with `_id` (added by the store), the sort's tie-breaker.
 */
const changeNoticeEvents: ReadonlySet<string> = new Set([
  'ArtifactChangeNoticed',
  'ArtifactChangeNoticeWidened',
  'ArtifactChangeNoticesConsumed',
]);

export const tasksProjection: ProjectionDefinition<TaskDocument> = {
  name: 'tasks',
  // 2: summary, mergedInto and moved items. 3: the last continuation decision. 4: brief,
  // checklist, checkpoint cards (open count derived from them), autonomy and plan budgets.
  // 5: item outputs and linked artefacts, card quotes, budget cards' approvals as plan budgets.
  // 6: a fork's lineage and armed tools (forkOf).
  version: 6,
  categories: ['task', 'turn'],
  // Every task event is activity, except change notices: someone else edited an artefact the task
  // read, and a person dragging nodes must not make every reading task "recently active" (nor
  // rewrite 100 task documents per edit). The workspace projection shows notices. Of a turn, its
  // lifecycle and its steps: tool calls and lease renewals would rewrite (and re-announce) the
  // task once per call without changing its counts. (No version bump: no log holds a notice yet.)
  handles: [...taskEventTypes.filter((t) => !changeNoticeEvents.has(t)), ...turnActivityEvents],
  indexes: [
    { fields: { workspaceId: 1, lastActivityAt: -1 } },
    { fields: { workspaceId: 1, status: 1, lastActivityAt: -1 } },
    { fields: { workspaceId: 1, kind: 1, lastActivityAt: -1 } },
    { fields: { workspaceId: 1, status: 1, kind: 1, lastActivityAt: -1 } },
  ],
  ownership: {
    created: fromTask,
    goal: fromTask,
    kind: fromTask,
    summary: fromTask,
    mergedInto: fromTask,
    status: fromTask,
    language: fromTask,
    originMessageId: fromTask,
    createdAt: fromTask,
    activeTurnId: fromTask,
    openCheckpoints: fromTask,
    brief: fromTask,
    checklist: fromTask,
    checkpoints: fromTask,
    autonomy: fromTask,
    planBudgets: fromTask,
    lastContinuation: fromTask,
    inbox: fromTask,
    turnsOpened: fromTask,
    taskActivityAt: fromTask,
    forkOf: fromTask,
    turnActivity: { owner: 'entry-per-stream', category: 'turn' },
    counts: { owner: 'derived' },
    lastActivityAt: { owner: 'derived' },
    activeTurn: { owner: 'derived' },
  },
  documentIds: taskDocumentIds,
  blank: blankTask,
  evolve: evolveTaskDocument,
  derive: deriveTask,
};
