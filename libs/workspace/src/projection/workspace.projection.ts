import type { ArtifactContent } from '@lomo/contracts';
import {
  eraseProjectionType,
  type AnyProjection,
  type KnownEvent,
  type ProjectionContext,
  type ProjectionDefinition,
} from '@lomo/read-models';
import {
  noticeDocumentId,
  taskArtifactDocumentId,
  versionDocumentId,
  type ArtifactDocument,
  type ArtifactVersionDocument,
  type NoticeDocument,
  type TaskArtifactDocument,
} from './workspace-documents';

export const WORKSPACE_ARTIFACTS = 'workspace_artifacts';
export const WORKSPACE_ARTIFACT_VERSIONS = 'workspace_artifact_versions';
export const WORKSPACE_TASK_ARTIFACTS = 'workspace_task_artifacts';
export const WORKSPACE_NOTICES = 'workspace_notices';

const fromArtifact = { owner: 'stream', category: 'artifact' } as const;
const fromTask = { owner: 'stream', category: 'task' } as const;
const artifactIdOf = (event: KnownEvent) => event.metadata.streamId.slice('artifact-'.length);
const taskIdOf = (event: KnownEvent) => event.metadata.streamId.slice('task-'.length);
const turnIdOf = (event: KnownEvent) => event.metadata.streamId.slice('turn-'.length);

/** What the latest content says about itself (hash, size, type), by content type. */
function contentFacts(content: ArtifactContent): Pick<ArtifactDocument, 'contentHash' | 'contentType' | 'bytes'> {
  switch (content.type) {
    case 'blob':
      return { contentHash: content.blob.hash, contentType: content.blob.contentType, bytes: content.blob.bytes };
    case 'document':
      return { contentHash: content.text.hash, contentType: 'text/markdown', bytes: content.text.bytes };
    default:
      return { contentHash: null, contentType: null, bytes: null };
  }
}

function withContent(doc: ArtifactDocument, content: ArtifactContent): ArtifactDocument {
  const next = { ...doc, ...contentFacts(content) };
  if (content.type === 'flow') {
    next.flow = {
      structureVersion: doc.flow?.structureVersion ?? 1,
      nodes: content.nodes.map((n) => ({ nodeId: n.nodeId, kind: n.kind, version: n.version })),
      edgeCount: content.edges.length,
    };
  }
  if (content.type === 'asset_set') next.members = [...content.members];
  return next;
}

// ---------------------------------------------------------------------------------------------
// workspace_artifacts

function blankArtifact(id: string, event: KnownEvent): ArtifactDocument {
  return {
    _id: id,
    workspaceId: event.metadata.workspaceId,
    _streams: {},
    created: false,
    artifactId: id,
    kind: null,
    title: '',
    version: 0,
    createdAt: null,
    updatedAt: null,
    deleted: false,
    deletionRequested: null,
    taskIds: [],
    contentHash: null,
    contentType: null,
    bytes: null,
    flow: null,
    members: null,
    listed: false,
    searchText: '',
  };
}

const withTask = (taskIds: readonly string[], taskId: string | undefined) =>
  taskId === undefined || taskIds.includes(taskId) ? [...taskIds] : [...taskIds, taskId];

function evolveArtifact(doc: ArtifactDocument, event: KnownEvent): ArtifactDocument {
  const at = event.metadata.occurredAt;
  switch (event.type) {
    case 'ArtifactCreated': {
      const { kind, title, taskId, content } = event.data;
      const base: ArtifactDocument = {
        ...doc,
        created: true,
        kind,
        title,
        version: 1,
        createdAt: at,
        updatedAt: at,
        // The creating task first (the stream's first event: nothing referenced it before).
        taskIds: taskId === undefined ? [...doc.taskIds] : [taskId, ...doc.taskIds.filter((t) => t !== taskId)],
        flow: content.type === 'flow' ? { structureVersion: 1, nodes: [], edgeCount: 0 } : null,
      };
      return withContent(base, content);
    }
    case 'ArtifactRevised':
      return withContent(
        { ...doc, version: event.data.version, updatedAt: at },
        event.data.change.type === 'snippets_edited'
          ? { type: 'document', text: event.data.change.text }
          : event.data.change.content,
      );
    case 'FlowNodeRevised': {
      const { version, nodeId, nodeVersion } = event.data;
      const flow = doc.flow ?? { structureVersion: 1, nodes: [], edgeCount: 0 };
      const nodes = flow.nodes.map((n) => (n.nodeId === nodeId ? { ...n, version: nodeVersion } : n));
      return { ...doc, version: Math.max(doc.version, version), updatedAt: at, flow: { ...flow, nodes } };
    }
    case 'FlowStructureChanged': {
      const { version, structureVersion, addedNodes, removedNodeIds, addedEdges, removedEdgeIds } = event.data;
      const flow = doc.flow ?? { structureVersion: 1, nodes: [], edgeCount: 0 };
      const removed = new Set(removedNodeIds);
      const nodes = [
        ...flow.nodes.filter((n) => !removed.has(n.nodeId)),
        ...addedNodes.map((n) => ({ nodeId: n.nodeId, kind: n.kind, version: n.version })),
      ];
      const edgeCount = Math.max(0, flow.edgeCount + addedEdges.length - removedEdgeIds.length);
      return {
        ...doc,
        version: Math.max(doc.version, version),
        updatedAt: at,
        flow: { structureVersion, nodes, edgeCount },
      };
    }
    case 'ArtifactReferenced':
      return { ...doc, taskIds: withTask(doc.taskIds, event.data.taskId), updatedAt: at };
    case 'ArtifactDeletionRequested': {
      const by = event.data.by;
      const who = by.kind === 'user' ? by.userId : by.kind === 'system' ? by.component : 'agent';
      return { ...doc, deletionRequested: { requestId: event.data.requestId, by: who }, updatedAt: at };
    }
    case 'ArtifactDeleted':
      return { ...doc, deleted: true, deletionRequested: null, updatedAt: at };
    default:
      return doc;
  }
}

const deriveArtifact = (doc: ArtifactDocument): ArtifactDocument => ({
  ...doc,
  listed: doc.created && !doc.deleted,
  searchText: doc.title.toLowerCase(),
});

const artifactEvents = [
  'ArtifactCreated',
  'ArtifactRevised',
  'FlowNodeRevised',
  'FlowStructureChanged',
  'ArtifactReferenced',
  'ArtifactDeletionRequested',
  'ArtifactDeleted',
] as const;

export const workspaceArtifactsProjection: ProjectionDefinition<ArtifactDocument> = {
  name: WORKSPACE_ARTIFACTS,
  version: 1,
  categories: ['artifact'],
  handles: artifactEvents,
  indexes: [
    { fields: { workspaceId: 1, listed: 1, updatedAt: -1 } },
    { fields: { workspaceId: 1, listed: 1, kind: 1, updatedAt: -1 } },
  ],
  ownership: {
    created: fromArtifact,
    artifactId: fromArtifact,
    kind: fromArtifact,
    title: fromArtifact,
    version: fromArtifact,
    createdAt: fromArtifact,
    updatedAt: fromArtifact,
    deleted: fromArtifact,
    deletionRequested: fromArtifact,
    taskIds: fromArtifact,
    contentHash: fromArtifact,
    contentType: fromArtifact,
    bytes: fromArtifact,
    flow: fromArtifact,
    members: fromArtifact,
    listed: { owner: 'derived' },
    searchText: { owner: 'derived' },
  },
  documentIds: (event) => [artifactIdOf(event)],
  blank: blankArtifact,
  evolve: evolveArtifact,
  derive: deriveArtifact,
};

// ---------------------------------------------------------------------------------------------
// workspace_artifact_versions

function versionOf(event: KnownEvent): number | undefined {
  switch (event.type) {
    case 'ArtifactCreated':
      return 1;
    case 'ArtifactRevised':
    case 'FlowNodeRevised':
    case 'FlowStructureChanged':
      return event.data.version;
    default:
      return undefined;
  }
}

function blankVersion(id: string, event: KnownEvent): ArtifactVersionDocument {
  return {
    _id: id,
    workspaceId: event.metadata.workspaceId,
    _streams: {},
    artifactId: artifactIdOf(event),
    version: versionOf(event) ?? 0,
    at: null,
    by: null,
    change: null,
    contentHash: null,
    contentType: null,
    bytes: null,
    summary: null,
    nodes: [],
  };
}

const joinNodes = (a: readonly string[], b: readonly string[]) => [...new Set([...a, ...b])];

function evolveVersion(doc: ArtifactVersionDocument, event: KnownEvent): ArtifactVersionDocument {
  const at = event.metadata.occurredAt;
  switch (event.type) {
    case 'ArtifactCreated': {
      const facts = contentFacts(event.data.content);
      return { ...doc, at, by: event.data.createdBy, change: 'created', ...facts, summary: 'created' };
    }
    case 'ArtifactRevised': {
      const { by, change } = event.data;
      if (change.type === 'snippets_edited') {
        const facts = contentFacts({ type: 'document', text: change.text });
        return { ...doc, at, by, change: 'snippets_edited', ...facts, summary: change.summary };
      }
      const facts = contentFacts(change.content);
      const nodes = change.content.type === 'flow' ? change.content.nodes.map((n) => n.nodeId) : [];
      const summary = change.type === 'restored' ? `restored version ${change.fromVersion}` : 'replaced';
      return { ...doc, at, by, change: change.type, ...facts, summary, nodes };
    }
    case 'FlowNodeRevised': {
      const nodes = joinNodes(doc.nodes, [event.data.nodeId]);
      return {
        ...doc,
        at,
        by: event.data.by,
        change: 'flow_nodes',
        nodes,
        summary: `node params: ${nodes.join(', ')}`,
      };
    }
    case 'FlowStructureChanged': {
      const { addedNodes, removedNodeIds, addedEdges, removedEdgeIds, by } = event.data;
      const nodes = joinNodes(doc.nodes, [...addedNodes.map((n) => n.nodeId), ...removedNodeIds]);
      const parts = [
        addedNodes.length > 0 ? `+${addedNodes.length} nodes` : '',
        removedNodeIds.length > 0 ? `−${removedNodeIds.length} nodes` : '',
        addedEdges.length > 0 ? `+${addedEdges.length} edges` : '',
        removedEdgeIds.length > 0 ? `−${removedEdgeIds.length} edges` : '',
      ].filter((p) => p !== '');
      return { ...doc, at, by, change: 'flow_structure', nodes, summary: `structure: ${parts.join(', ')}` };
    }
    default:
      return doc;
  }
}

export const workspaceArtifactVersionsProjection: ProjectionDefinition<ArtifactVersionDocument> = {
  name: WORKSPACE_ARTIFACT_VERSIONS,
  version: 1,
  categories: ['artifact'],
  handles: ['ArtifactCreated', 'ArtifactRevised', 'FlowNodeRevised', 'FlowStructureChanged'],
  indexes: [{ fields: { workspaceId: 1, artifactId: 1, version: 1 } }],
  ownership: {
    artifactId: fromArtifact,
    version: fromArtifact,
    at: fromArtifact,
    by: fromArtifact,
    change: fromArtifact,
    contentHash: fromArtifact,
    contentType: fromArtifact,
    bytes: fromArtifact,
    summary: fromArtifact,
    nodes: fromArtifact,
  },
  documentIds: (event) => {
    const version = versionOf(event);
    return version === undefined ? [] : [versionDocumentId(artifactIdOf(event), version)];
  },
  blank: blankVersion,
  evolve: evolveVersion,
};

// ---------------------------------------------------------------------------------------------
// workspace_task_artifacts

/**
 * The convention of the workspace tools (document.read/write/edit, flow.read/edit_nodes,
 * artifact.reference): a successful result carries `artifact: {artifactId, version}` at its top
 * level, the version the call read or wrote. Results stored by reference (too large to inline)
 * are not looked into; the workspace tools keep theirs small.
 */
export function artifactSeenBy(event: KnownEvent): { artifactId: string; version: number } | undefined {
  if (event.type !== 'ToolCallCompleted' || event.data.status !== 'ok') return undefined;
  const result = event.data.result;
  if (result === null || typeof result !== 'object' || Array.isArray(result)) return undefined;
  const artifact = (result as Record<string, unknown>).artifact;
  if (artifact === null || typeof artifact !== 'object' || Array.isArray(artifact)) return undefined;
  const { artifactId, version } = artifact as Record<string, unknown>;
  if (typeof artifactId !== 'string' || !/^[0-9a-f-]{36}$/.test(artifactId)) return undefined;
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) return undefined;
  return { artifactId, version };
}

/** The task an artefact event binds or credits: its creator, a referencing task, an agent writer. */
function taskOfArtifactEvent(event: KnownEvent): string[] {
  switch (event.type) {
    case 'ArtifactCreated': {
      const author = event.data.createdBy;
      const byTask = author.kind === 'agent' ? author.taskId : undefined;
      return [...new Set([event.data.taskId, byTask].filter((t): t is string => t !== undefined))];
    }
    case 'ArtifactReferenced':
      return [event.data.taskId];
    case 'ArtifactRevised':
    case 'FlowNodeRevised':
    case 'FlowStructureChanged':
      return event.data.by.kind === 'agent' ? [event.data.by.taskId] : [];
    default:
      return [];
  }
}

function taskArtifactIds(
  event: KnownEvent,
  context: ProjectionContext,
): readonly string[] | Promise<readonly string[]> {
  if (event.metadata.streamId.startsWith('artifact-')) {
    const artifactId = artifactIdOf(event);
    return taskOfArtifactEvent(event).map((taskId) => taskArtifactDocumentId(taskId, artifactId));
  }
  const seen = artifactSeenBy(event);
  if (seen === undefined) return [];
  const turnId = turnIdOf(event);
  const ofTask = (taskId: string | undefined) =>
    taskId === undefined ? [] : [taskArtifactDocumentId(taskId, seen.artifactId)];
  const known = context.knownTaskOfTurn(turnId);
  return known !== undefined ? ofTask(known) : context.taskOfTurn(turnId).then(ofTask);
}

function blankTaskArtifact(id: string, event: KnownEvent): TaskArtifactDocument {
  const split = id.indexOf(':');
  return {
    _id: id,
    workspaceId: event.metadata.workspaceId,
    _streams: {},
    taskId: id.slice(0, split),
    artifactId: id.slice(split + 1),
    referenced: false,
    referencedAt: null,
    wroteVersion: 0,
    seenByTurn: {},
    lastSeenVersion: 0,
  };
}

function evolveTaskArtifact(doc: TaskArtifactDocument, event: KnownEvent): TaskArtifactDocument {
  const at = event.metadata.occurredAt;
  switch (event.type) {
    case 'ArtifactCreated': {
      const author = event.data.createdBy;
      const wrote = author.kind === 'agent' && author.taskId === doc.taskId;
      const bound = event.data.taskId === doc.taskId;
      return {
        ...doc,
        referenced: doc.referenced || bound,
        referencedAt: bound ? (doc.referencedAt ?? at) : doc.referencedAt,
        wroteVersion: wrote ? Math.max(doc.wroteVersion, 1) : doc.wroteVersion,
      };
    }
    case 'ArtifactReferenced':
      return doc.referenced ? doc : { ...doc, referenced: true, referencedAt: at };
    case 'ArtifactRevised':
    case 'FlowNodeRevised':
    case 'FlowStructureChanged':
      return { ...doc, wroteVersion: Math.max(doc.wroteVersion, event.data.version) };
    case 'ToolCallCompleted': {
      const seen = artifactSeenBy(event);
      if (seen === undefined) return doc;
      const turnId = turnIdOf(event);
      const before = doc.seenByTurn[turnId] ?? 0;
      // The highest version a turn saw: a later read of an old version (on purpose) does not go back.
      return seen.version <= before ? doc : { ...doc, seenByTurn: { ...doc.seenByTurn, [turnId]: seen.version } };
    }
    default:
      return doc;
  }
}

const deriveTaskArtifact = (doc: TaskArtifactDocument): TaskArtifactDocument => ({
  ...doc,
  lastSeenVersion: Math.max(doc.wroteVersion, 0, ...Object.values(doc.seenByTurn)),
});

export const workspaceTaskArtifactsProjection: ProjectionDefinition<TaskArtifactDocument> = {
  name: WORKSPACE_TASK_ARTIFACTS,
  version: 1,
  categories: ['artifact', 'turn'],
  handles: [
    'ArtifactCreated',
    'ArtifactReferenced',
    'ArtifactRevised',
    'FlowNodeRevised',
    'FlowStructureChanged',
    'ToolCallCompleted',
  ],
  indexes: [
    { fields: { workspaceId: 1, artifactId: 1, lastSeenVersion: 1 } },
    { fields: { workspaceId: 1, taskId: 1, referenced: 1, referencedAt: 1 } },
  ],
  ownership: {
    taskId: fromArtifact,
    artifactId: fromArtifact,
    referenced: fromArtifact,
    referencedAt: fromArtifact,
    wroteVersion: fromArtifact,
    seenByTurn: { owner: 'entry-per-stream', category: 'turn' },
    lastSeenVersion: { owner: 'derived' },
  },
  documentIds: taskArtifactIds,
  blank: blankTaskArtifact,
  evolve: evolveTaskArtifact,
  derive: deriveTaskArtifact,
};

// ---------------------------------------------------------------------------------------------
// workspace_notices

function blankNotice(id: string, event: KnownEvent): NoticeDocument {
  const split = id.indexOf(':');
  return {
    _id: id,
    workspaceId: event.metadata.workspaceId,
    _streams: {},
    created: false,
    taskId: id.slice(0, split),
    noticeId: id.slice(split + 1),
    artifactId: '',
    fromVersion: 0,
    toVersion: 0,
    nodes: [],
    summary: '',
    by: null,
    noticedAt: null,
    updatedAt: null,
    open: false,
    consumedBy: null,
  };
}

function evolveNotice(doc: NoticeDocument, event: KnownEvent): NoticeDocument {
  const at = event.metadata.occurredAt;
  switch (event.type) {
    case 'ArtifactChangeNoticed': {
      if (doc.created) return doc;
      const { artifactId, fromVersion, toVersion, nodes, summary, by } = event.data;
      return {
        ...doc,
        created: true,
        artifactId,
        fromVersion,
        toVersion,
        nodes: [...nodes],
        summary,
        by,
        noticedAt: at,
        updatedAt: at,
        open: true,
      };
    }
    case 'ArtifactChangeNoticeWidened': {
      const { toVersion, nodes, summary, by } = event.data;
      if (!doc.open || toVersion <= doc.toVersion) return doc;
      return { ...doc, toVersion, nodes: [...nodes], summary, by, updatedAt: at };
    }
    case 'ArtifactChangeNoticesConsumed':
      return doc.open
        ? { ...doc, open: false, consumedBy: { turnId: event.data.turnId, step: event.data.step }, updatedAt: at }
        : doc;
    default:
      return doc;
  }
}

function noticeIds(event: KnownEvent): readonly string[] {
  const taskId = taskIdOf(event);
  switch (event.type) {
    case 'ArtifactChangeNoticed':
    case 'ArtifactChangeNoticeWidened':
      return [noticeDocumentId(taskId, event.data.noticeId)];
    case 'ArtifactChangeNoticesConsumed':
      return event.data.noticeIds.map((id) => noticeDocumentId(taskId, id));
    default:
      return [];
  }
}

export const workspaceNoticesProjection: ProjectionDefinition<NoticeDocument> = {
  name: WORKSPACE_NOTICES,
  version: 1,
  categories: ['task'],
  handles: ['ArtifactChangeNoticed', 'ArtifactChangeNoticeWidened', 'ArtifactChangeNoticesConsumed'],
  indexes: [{ fields: { workspaceId: 1, taskId: 1, open: 1, noticedAt: 1 } }],
  ownership: {
    created: fromTask,
    taskId: fromTask,
    noticeId: fromTask,
    artifactId: fromTask,
    fromVersion: fromTask,
    toVersion: fromTask,
    nodes: fromTask,
    summary: fromTask,
    by: fromTask,
    noticedAt: fromTask,
    updatedAt: fromTask,
    open: fromTask,
    consumedBy: fromTask,
  },
  documentIds: noticeIds,
  blank: blankNotice,
  evolve: evolveNotice,
};

/**
 * The workspace read model's projections, for the projector (embedded and distributed). Order
 * matters only for the fan-out's latency, not its correctness: a live batch reaches the
 * projections in this order, so when `workspace_artifacts` announces a write, the versions and
 * the readers of this batch are in already.
 */
export const workspaceProjections: readonly AnyProjection[] = [
  eraseProjectionType(workspaceArtifactVersionsProjection),
  eraseProjectionType(workspaceTaskArtifactsProjection),
  eraseProjectionType(workspaceArtifactsProjection),
  eraseProjectionType(workspaceNoticesProjection),
];
