import type { ArtifactCommands, ArtifactReader } from '../artifact-commands.port';
import type { WorkspaceReadModel } from '../workspace-read.port';

export interface WorkspaceToolDeps {
  commands: ArtifactCommands;
  /** Authoritative reads (the artefact's stream): what a write is based on. */
  reader: ArtifactReader;
  /** Lists and searches (the projection). */
  readModel: WorkspaceReadModel;
  /**
   * The id of the approval checkpoint the runtime opens for a call (`checkpointIdFor` in
   * @lomo/runtime). Passed in rather than imported: the runtime sits above the tools.
   */
  checkpointIdFor: (callId: string) => string;
}
