import { DomainError } from '@lomo/domain';

export type ArtifactRefusalCode =
  | 'ARTIFACT_NOT_FOUND'
  /** Creating an id that exists with other content (the same create again is a no-op). */
  | 'ARTIFACT_ALREADY_EXISTS'
  | 'ARTIFACT_DELETED'
  | 'ARTIFACT_KIND_MISMATCH'
  | 'ARTIFACT_VERSION_CONFLICT'
  | 'SNIPPET_NOT_FOUND'
  | 'SNIPPET_NOT_UNIQUE'
  | 'FLOW_NODE_CONFLICT'
  | 'FLOW_NODE_DELETED'
  | 'FLOW_STRUCTURE_CONFLICT'
  | 'FLOW_INVALID_STRUCTURE'
  | 'DELETION_NOT_CONFIRMED'
  | 'ARTIFACT_INVALID_INPUT';

/**
 * A refused artefact write: nothing was appended. Carries the current version and what changed
 * since the writer's base, so the agent (or the person) re-reads and resubmits.
 */
export class ArtifactRefusedError extends DomainError {
  constructor(
    override readonly code: ArtifactRefusalCode,
    message: string,
    readonly details: {
      artifactId: string;
      currentVersion?: number;
      /** Flows: nodes whose version moved past the writer's base, with their current versions. */
      changedNodes?: Array<{ nodeId: string; version: number }>;
      /** Documents: which snippets failed (by index in the request). */
      failedEdits?: Array<{ index: number; reason: 'not_found' | 'not_unique' }>;
      currentStructureVersion?: number;
    },
  ) {
    super(code, message);
    this.name = 'ArtifactRefusedError';
  }
}
