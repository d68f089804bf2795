import type { ArtifactVersionView, ArtifactView } from '@lomo/workspace';
import type { Artifact, ArtifactVersion } from '../types/artifact.types';

const MEDIA_KINDS = new Set(['image', 'video', '3d', 'audio']);

/** The API's own route for media bytes (media.controller.ts); relative, so it works behind any host. */
export const mediaPath = (artifactId: string, version?: number) =>
  version === undefined ? `/media/${artifactId}` : `/media/${artifactId}/${version}`;

function mapVersion(view: ArtifactView, v: ArtifactVersionView): ArtifactVersion {
  const by = v.by;
  return {
    version: v.version,
    at: v.at,
    by: {
      kind: by.kind,
      userId: by.kind === 'person' ? by.userId : null,
      taskId: by.kind === 'agent' ? by.taskId : null,
      callId: by.kind === 'agent' ? by.callId : null,
      jobId: by.kind === 'generation' ? by.jobId : null,
    },
    change: v.change,
    contentType: v.contentType ?? null,
    bytes: v.bytes ?? null,
    summary: v.summary ?? null,
    mediaUrl: MEDIA_KINDS.has(view.kind) ? mediaPath(view.artifactId, v.version) : null,
  };
}

export function mapArtifact(view: ArtifactView): Artifact {
  return {
    id: view.artifactId,
    workspaceId: view.workspaceId,
    kind: view.kind,
    title: view.title,
    version: view.version,
    createdAt: view.createdAt,
    updatedAt: view.updatedAt,
    deleted: view.deleted,
    deletionRequested: view.deletionRequested ? { ...view.deletionRequested } : null,
    taskIds: [...view.taskIds],
    versions: view.versions.map((v) => mapVersion(view, v)),
    members: view.members ? [...view.members] : null,
    mediaUrl: MEDIA_KINDS.has(view.kind) && !view.deleted ? mediaPath(view.artifactId) : null,
  };
}
