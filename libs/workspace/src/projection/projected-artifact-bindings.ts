import type { ArtifactBinding, ArtifactBindings } from '@lomo/routing';
import type { DocumentStoreWorkspaceReadModel } from './document-store-workspace-read-model';

const REF = /^artifact:([0-9a-f-]{36})(?:@\d+)?(?:#[A-Za-z0-9_-]+)?$/;

/**
 * The router's artefact lookup over the workspace projection: an artefact created or referenced
 * by a task is bound to it (the creating task first, DESIGN.md §4 step 2); a deleted one answers
 * `deleted` with the task it was bound to, so the router gives a clear reply instead of routing.
 * An artefact of another workspace, or one no task uses, is `unknown`.
 */
export class ProjectedArtifactBindings implements ArtifactBindings {
  constructor(private readonly workspace: Pick<DocumentStoreWorkspaceReadModel, 'artifactDocument'>) {}

  async lookup(workspaceId: string, artifactRef: string): Promise<ArtifactBinding> {
    const artifactId = REF.exec(artifactRef)?.[1];
    if (artifactId === undefined) return { status: 'unknown', artifactId: artifactRef };
    const doc = await this.workspace.artifactDocument(workspaceId, artifactId);
    if (doc === undefined) return { status: 'unknown', artifactId };
    const taskId = doc.taskIds[0];
    if (doc.deleted) return { status: 'deleted', artifactId, taskId: taskId ?? null };
    return taskId === undefined ? { status: 'unknown', artifactId } : { status: 'bound', artifactId, taskId };
  }
}
