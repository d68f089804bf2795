import { WORKSPACE_ARTIFACTS } from './projection/workspace.projection';

/**
 * The seam between the workspace read model and the API's `artifactChanged(id)` subscription:
 * after the projection applies a change of an artefact it publishes a read-model change notice
 * (libs/read-models ChangeNotice on `lomo.changes`) with `projection` = this name, `documentId` =
 * the artefact id and the artefact's workspace. The API listens for exactly that and re-reads the
 * artefact from the WorkspaceReadModel, so a notice carries no content of its own.
 */
export const ARTIFACT_NOTICE_PROJECTION = WORKSPACE_ARTIFACTS;

/** The notice the projection (or a fake of it) publishes for one changed artefact. */
export const artifactChangeNotice = (workspaceId: string, artifactId: string, streamRevision: number) => ({
  projection: ARTIFACT_NOTICE_PROJECTION,
  collection: ARTIFACT_NOTICE_PROJECTION,
  documentId: artifactId,
  workspaceId,
  streams: { [`artifact-${artifactId}`]: streamRevision },
});
