import { taskEventTypes } from '@lomo/domain';
import type { KnownEvent, KnownEventType, ProjectionDefinition, ProjectionDocument } from '@lomo/read-models';
import { isActive, isRoutable, type RoutingDocument, type RoutingTaskStatus } from './routing-document';

export const ROUTING_INDEX_PROJECTION = 'routing_index';

/** The stored form: the RoutingDocument plus what evolve needs to keep `status` right. */
export type RoutingIndexDocument = ProjectionDocument &
  Omit<RoutingDocument, 'workspaceId' | 'status' | 'kind' | 'goal' | 'createdAt'> & {
    /** TaskCreated applied; readers skip the document until then. */
    created: boolean;
    /** The message the task started from (its goal's words): a forgetting of it hides the goal. */
    originMessageId?: string;
    goal: string;
    kind: RoutingDocument['kind'];
    status: RoutingTaskStatus;
    createdAt: string;
    openCheckpoints: number;
    /** Derived, for the readers' indexes: created and `isRoutable` / created and `isActive`. */
    routable: boolean;
    activePool: boolean;
    /**
     * An operator's fork (ForkedFrom, issue 20): never a routing candidate, so a person's message
     * never lands on a copy by chance; it is reached only by naming it.
     */
    fork?: boolean;
    /** Lifecycle before checkpoints are taken into account (active while none is open = waiting). */
    lifecycle: 'active' | 'paused' | 'stopped' | 'completed' | 'archived';
  };

const fromTask = { owner: 'stream', category: 'task' } as const;
// A notice's widening and consumption change nothing routing reads (the artefact ref came with
// the notice itself), so they are not handled: no rewrite of the document per person edit.
const notRouting: ReadonlySet<string> = new Set(['ArtifactChangeNoticeWidened', 'ArtifactChangeNoticesConsumed']);
const handled: readonly KnownEventType[] = [
  ...new Set<KnownEventType>([...taskEventTypes, 'TaskSummaryUpdated', 'TasksMerged', 'TaskArchived']),
].filter((t) => !notRouting.has(t));

export function blankRoutingDocument(id: string, event: KnownEvent): RoutingIndexDocument {
  return {
    _id: id,
    workspaceId: event.metadata.workspaceId,
    _streams: {},
    taskId: id,
    created: false,
    goal: '',
    summary: null,
    kind: 'persistent',
    status: 'active',
    lifecycle: 'active',
    openCheckpoints: 0,
    routable: false,
    activePool: false,
    createdAt: event.metadata.occurredAt,
    lastActiveAt: event.metadata.occurredAt,
    artifactRefs: [],
    mergedInto: null,
  };
}

/**
 * Every task event is activity, except a change notice (someone else edited an artefact the task
 * read: the task did nothing, and recency must not follow a person's edits); the lifecycle ones
 * also move the status.
 */
export function evolveRoutingDocument(doc: RoutingIndexDocument, event: KnownEvent): RoutingIndexDocument {
  // A forgetting is not the task doing something either.
  const active = event.type !== 'ArtifactChangeNoticed' && event.type !== 'ContextExcluded';
  const next = active ? { ...doc, lastActiveAt: maxTime(doc.lastActiveAt, event.metadata.occurredAt) } : { ...doc };
  switch (event.type) {
    case 'TaskCreated':
      return {
        ...next,
        created: true,
        goal: event.data.goal,
        originMessageId: event.data.originMessageId,
        kind: event.data.kind,
        createdAt: event.metadata.occurredAt,
      };
    case 'ContextExcluded':
      // The goal is the first message's words: forgotten, they leave the index (and the summary
      // vector computed from it) by provenance; the forgetting writes a new summary as well.
      return next.originMessageId !== undefined && event.data.messageIds.includes(next.originMessageId)
        ? { ...next, goal: FORGOTTEN_GOAL }
        : next;
    case 'ForkedFrom':
      return { ...next, fork: true };
    case 'TaskUpgraded':
      return { ...next, kind: event.data.to };
    case 'TaskSummaryUpdated':
      return { ...next, summary: event.data.summary };
    case 'CheckpointOpened':
      return { ...next, openCheckpoints: next.openCheckpoints + 1 };
    case 'CheckpointResolved':
      return { ...next, openCheckpoints: Math.max(0, next.openCheckpoints - 1) };
    case 'TaskPaused':
      return { ...next, lifecycle: 'paused' };
    case 'TaskResumed':
      return { ...next, lifecycle: 'active' };
    case 'TaskStopped':
      return { ...next, lifecycle: 'stopped' };
    case 'TaskCompleted':
      return { ...next, lifecycle: 'completed' };
    case 'TaskArchived':
      return { ...next, lifecycle: 'archived', mergedInto: event.data.mergedInto ?? next.mergedInto };
    case 'TasksMerged':
      return event.data.role === 'source' ? { ...next, mergedInto: event.data.targetTaskId } : next;
    case 'ArtifactChangeNoticed':
      return next.artifactRefs.includes(event.data.artifactId)
        ? next
        : { ...next, artifactRefs: [...next.artifactRefs, event.data.artifactId] };
    default:
      return next;
  }
}

/** `waiting` is an active task with an open checkpoint (the task decider's rule). */
export function deriveRoutingDocument(doc: RoutingIndexDocument): RoutingIndexDocument {
  const status: RoutingTaskStatus = doc.lifecycle === 'active' && doc.openCheckpoints > 0 ? 'waiting' : doc.lifecycle;
  const view = { ...doc, status };
  const candidate = doc.created && doc.fork !== true;
  return { ...view, routable: candidate && isRoutable(view), activePool: candidate && isActive(view) };
}

const maxTime = (a: string, b: string) => (b > a ? b : a);

/** What the index keeps of a task whose first message was forgotten (the same words the cascade writes). */
export const FORGOTTEN_GOAL = 'A task (its first message was forgotten).';

/**
 * `routing_index`: one document per task (`_id` = taskId), all fields from `task-<id>`. Only
 * this projection's documents feed the SearchIndex (`SearchIndexFeeder`).
 */
export const routingIndexProjection: ProjectionDefinition<RoutingIndexDocument> = {
  name: ROUTING_INDEX_PROJECTION,
  // 2: keeps the origin message, so a forgetting of it hides the goal. 3: forks are no candidates.
  version: 3,
  categories: ['task'],
  handles: handled,
  indexes: [
    { fields: { workspaceId: 1, routable: 1, lastActiveAt: -1 } },
    { fields: { workspaceId: 1, activePool: 1, lastActiveAt: -1 } },
  ],
  ownership: {
    taskId: fromTask,
    created: fromTask,
    originMessageId: fromTask,
    goal: fromTask,
    summary: fromTask,
    kind: fromTask,
    status: { owner: 'derived' },
    routable: { owner: 'derived' },
    activePool: { owner: 'derived' },
    lifecycle: fromTask,
    fork: fromTask,
    openCheckpoints: fromTask,
    createdAt: fromTask,
    lastActiveAt: fromTask,
    artifactRefs: fromTask,
    mergedInto: fromTask,
  },
  documentIds: (event) => [event.metadata.streamId.slice('task-'.length)],
  blank: blankRoutingDocument,
  evolve: evolveRoutingDocument,
  derive: deriveRoutingDocument,
};

/** The reader's view of a stored document. */
export function toRoutingDocument(doc: RoutingIndexDocument): RoutingDocument {
  return {
    taskId: doc.taskId,
    workspaceId: doc.workspaceId,
    goal: doc.goal,
    summary: doc.summary,
    kind: doc.kind,
    status: doc.status,
    createdAt: doc.createdAt,
    lastActiveAt: doc.lastActiveAt,
    artifactRefs: doc.artifactRefs,
    mergedInto: doc.mergedInto,
  };
}
