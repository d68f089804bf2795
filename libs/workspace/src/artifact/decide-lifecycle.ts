import { assertNever } from '@lomo/domain';
import type { ArtifactKind } from '@lomo/contracts';
import type {
  ConfirmDeletion,
  CreateArtifact,
  CreateContent,
  DeleteWithCheckpoint,
  ReferenceArtifact,
  RequestDeletion,
} from './artifact-commands';
import type { ArtifactContentData, ArtifactEvent } from './artifact-events';
import { existing, invalid, live, refuse, sameJson } from './artifact-guards';
import type { ArtifactState } from './artifact-state';
import { sha256Hex, utf8Bytes } from './document-text';
import { checkFlowStructure } from './flow-structure';

const contentTypeOfKind: Record<ArtifactKind, CreateContent['type']> = {
  image: 'blob',
  video: 'blob',
  '3d': 'blob',
  audio: 'blob',
  document: 'document',
  flow: 'flow',
  asset_set: 'asset_set',
};

/** The event form of a new artefact's content; a document's text is its own first snapshot. */
function contentOf(command: CreateArtifact, state: ArtifactState): ArtifactContentData {
  const content = command.content;
  switch (content.type) {
    case 'document': {
      const hash = sha256Hex(content.text);
      const bytes = utf8Bytes(content.text);
      return { type: 'document', text: { hash, bytes, snapshot: { hash, bytes, contentType: content.contentType } } };
    }
    case 'flow': {
      checkFlowStructure(state, content.nodes, content.edges);
      return {
        type: 'flow',
        nodes: content.nodes.map((n) => ({ nodeId: n.nodeId, kind: n.kind, params: n.params as never, version: 1 })),
        edges: content.edges.map((e) => ({ edgeId: e.edgeId, from: e.from, to: e.to })),
      };
    }
    case 'blob':
      return { type: 'blob', blob: content.blob };
    case 'asset_set':
      return { type: 'asset_set', members: [...content.members] };
    default:
      return assertNever(content, 'artefact content');
  }
}

/** Creating the same artefact again is a no-op; the same id with anything else is refused. */
export function createArtifact(command: CreateArtifact, state: ArtifactState): ArtifactEvent[] {
  if (state.status !== 'none') {
    if (state.kind === command.kind && state.title === command.title && sameJson(state.createdBy, command.by))
      return [];
    return refuse(state, 'ARTIFACT_ALREADY_EXISTS', `Artefact ${state.artifactId} exists already`, {
      currentVersion: state.version,
    });
  }
  const failing = { status: 'none' } as const;
  if (contentTypeOfKind[command.kind] !== command.content.type)
    invalid(failing, `A ${command.kind} artefact cannot hold ${command.content.type} content`);
  if (command.title.trim() === '') invalid(failing, 'An artefact needs a title');
  const data = {
    artifactId: command.artifactId,
    kind: command.kind,
    title: command.title,
    createdBy: command.by,
    ...(command.taskId !== undefined ? { taskId: command.taskId } : {}),
    content: contentOf(command, failing),
  };
  return [{ type: 'ArtifactCreated', data }];
}

/** The same artefact referenced by two tasks is one artefact; referencing it again is a no-op. */
export function referenceArtifact(command: ReferenceArtifact, state: ArtifactState): ArtifactEvent[] {
  const artifact = live(state);
  if (artifact.references.includes(command.taskId)) return [];
  return [{ type: 'ArtifactReferenced', data: { taskId: command.taskId, by: command.by } }];
}

export function requestDeletion(command: RequestDeletion, state: ArtifactState): ArtifactEvent[] {
  const artifact = live(state);
  if (artifact.deletionRequests[command.requestId] !== undefined) return [];
  return [{ type: 'ArtifactDeletionRequested', data: { requestId: command.requestId, by: command.by } }];
}

/** Deleting is irreversible: only a person confirming an open request of theirs deletes. */
export function confirmDeletion(command: ConfirmDeletion, state: ArtifactState): ArtifactEvent[] {
  const artifact = existing(state);
  if (artifact.status === 'deleted') {
    if (artifact.confirmationKey === `request:${command.requestId}`) return [];
    return refuse(artifact, 'ARTIFACT_DELETED', `Artefact ${artifact.artifactId} was deleted`, {
      currentVersion: artifact.version,
    });
  }
  if (artifact.deletionRequests[command.requestId] === undefined)
    return refuse(artifact, 'DELETION_NOT_CONFIRMED', `No deletion request ${command.requestId} is open`, {
      currentVersion: artifact.version,
    });
  if (command.by.kind !== 'user' || command.by.userId !== command.confirmedBy)
    return refuse(artifact, 'DELETION_NOT_CONFIRMED', 'Only the person can confirm a deletion, as themselves', {
      currentVersion: artifact.version,
    });
  const confirmation = { kind: 'request' as const, requestId: command.requestId, confirmedBy: command.confirmedBy };
  return [{ type: 'ArtifactDeleted', data: { by: command.by, confirmation } }];
}

/**
 * The agent deletes only with the person's recorded approval of the task's checkpoint, and only
 * an artefact its task references (it cannot reach into other work).
 */
export function deleteWithCheckpoint(command: DeleteWithCheckpoint, state: ArtifactState): ArtifactEvent[] {
  const artifact = existing(state);
  if (artifact.status === 'deleted') {
    if (artifact.confirmationKey === `checkpoint:${command.checkpointId}`) return [];
    return refuse(artifact, 'ARTIFACT_DELETED', `Artefact ${artifact.artifactId} was deleted`, {
      currentVersion: artifact.version,
    });
  }
  const details = { currentVersion: artifact.version };
  if (command.approval === null)
    return refuse(
      artifact,
      'DELETION_NOT_CONFIRMED',
      `Checkpoint ${command.checkpointId} has no recorded decision of the person`,
      details,
    );
  if (command.approval.decision !== 'approve')
    return refuse(
      artifact,
      'DELETION_NOT_CONFIRMED',
      `The person rejected deleting at checkpoint ${command.checkpointId}`,
      details,
    );
  if (!artifact.references.includes(command.taskId))
    return refuse(
      artifact,
      'DELETION_NOT_CONFIRMED',
      `Task ${command.taskId} does not reference this artefact`,
      details,
    );
  const confirmation = { kind: 'checkpoint' as const, taskId: command.taskId, checkpointId: command.checkpointId };
  return [{ type: 'ArtifactDeleted', data: { by: command.by, confirmation } }];
}
