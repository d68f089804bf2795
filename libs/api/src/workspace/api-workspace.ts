import { Inject, Injectable, Optional } from '@nestjs/common';
import { ApiError, ApiErrorCodes } from '@lomo/contracts';
import {
  ARTIFACT_COMMANDS,
  ARTIFACT_READER,
  WORKSPACE_READ_MODEL,
  type ArtifactCommands,
  type ArtifactReader,
  type WorkspaceReadModel,
} from '@lomo/workspace';

export interface WorkspacePorts {
  commands: ArtifactCommands;
  reader: ArtifactReader;
  readModel: WorkspaceReadModel;
}

/**
 * The workspace's ports as the API sees them. They are optional so the schema (and every other
 * operation) stays the same in an app composed without the workspace: its artefact operations
 * then answer WORKSPACE_UNAVAILABLE, typed, instead of failing the whole app at start.
 */
@Injectable()
export class ApiWorkspace {
  constructor(
    @Optional() @Inject(ARTIFACT_COMMANDS) private readonly commands?: ArtifactCommands,
    @Optional() @Inject(ARTIFACT_READER) private readonly reader?: ArtifactReader,
    @Optional() @Inject(WORKSPACE_READ_MODEL) private readonly readModel?: WorkspaceReadModel,
  ) {}

  get available(): boolean {
    return this.commands !== undefined && this.reader !== undefined && this.readModel !== undefined;
  }

  ports(): WorkspacePorts {
    if (this.commands === undefined || this.reader === undefined || this.readModel === undefined) {
      throw new ApiError(ApiErrorCodes.WORKSPACE_UNAVAILABLE, 'This deployment serves no shared workspace');
    }
    return { commands: this.commands, reader: this.reader, readModel: this.readModel };
  }
}
