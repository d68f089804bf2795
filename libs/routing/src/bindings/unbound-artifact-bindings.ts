import type { ArtifactBinding, ArtifactBindings } from './artifact-bindings.port';

const UUID = /^artifact:([0-9a-f-]{36})/;

/**
 * The lookup until the workspace library binds artefacts to tasks: every reference is unknown,
 * so a message naming an artefact gets a clear question in Main instead of a guess.
 */
export class UnboundArtifactBindings implements ArtifactBindings {
  async lookup(_workspaceId: string, artifactRef: string): Promise<ArtifactBinding> {
    return { status: 'unknown', artifactId: UUID.exec(artifactRef)?.[1] ?? artifactRef };
  }
}
