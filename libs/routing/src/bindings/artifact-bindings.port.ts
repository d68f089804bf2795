export const ARTIFACT_BINDINGS = Symbol('ARTIFACT_BINDINGS');

/** What an artefact reference resolves to for routing: the task it is bound to, or that it is gone. */
export type ArtifactBinding =
  | { status: 'bound'; artifactId: string; taskId: string }
  | { status: 'deleted'; artifactId: string; taskId: string | null }
  | { status: 'unknown'; artifactId: string };

/**
 * Which task an artefact belongs to (DESIGN.md §4 step 2: "explicit task id or bound artefact").
 * The workspace library supplies the projection behind it; until then a fake or an empty lookup.
 */
export interface ArtifactBindings {
  /** `artifactRef` is `artifact:<uuid>[@version][#node]`; only the uuid matters for the binding. */
  lookup(workspaceId: string, artifactRef: string): Promise<ArtifactBinding>;
}
