import type { ArtifactBinding, ArtifactBindings } from '../bindings/artifact-bindings.port';

/** Artefact bindings a test states: `bind(ref, taskId)`, `delete(ref)`; anything else is unknown. */
export class FakeArtifactBindings implements ArtifactBindings {
  private readonly bindings = new Map<string, ArtifactBinding>();
  readonly lookups: string[] = [];

  bind(workspaceId: string, artifactRef: string, taskId: string): this {
    this.bindings.set(`${workspaceId}|${idOf(artifactRef)}`, {
      status: 'bound',
      artifactId: idOf(artifactRef),
      taskId,
    });
    return this;
  }

  delete(workspaceId: string, artifactRef: string, taskId: string | null = null): this {
    this.bindings.set(`${workspaceId}|${idOf(artifactRef)}`, {
      status: 'deleted',
      artifactId: idOf(artifactRef),
      taskId,
    });
    return this;
  }

  async lookup(workspaceId: string, artifactRef: string): Promise<ArtifactBinding> {
    this.lookups.push(artifactRef);
    return (
      this.bindings.get(`${workspaceId}|${idOf(artifactRef)}`) ?? { status: 'unknown', artifactId: idOf(artifactRef) }
    );
  }
}

const idOf = (ref: string) => /^artifact:([0-9a-f-]{36})/.exec(ref)?.[1] ?? ref;
