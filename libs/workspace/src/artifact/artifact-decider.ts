import { assertNever, type Decider } from '@lomo/domain';
import type { ArtifactCommand } from './artifact-commands';
import type { ArtifactEvent } from './artifact-events';
import { evolveArtifact } from './artifact-evolve';
import { initialArtifactState, type ArtifactState } from './artifact-state';
import { editDocumentSnippets, replaceContent, restoreVersion, rewriteDocument } from './decide-document';
import { changeFlowStructure, editFlowNodes } from './decide-flow';
import {
  confirmDeletion,
  createArtifact,
  deleteWithCheckpoint,
  referenceArtifact,
  requestDeletion,
} from './decide-lifecycle';

export function decideArtifact(command: ArtifactCommand, state: ArtifactState): ArtifactEvent[] {
  switch (command.type) {
    case 'CreateArtifact':
      return createArtifact(command, state);
    case 'RewriteDocument':
      return rewriteDocument(command, state);
    case 'EditDocumentSnippets':
      return editDocumentSnippets(command, state);
    case 'EditFlowNodes':
      return editFlowNodes(command, state);
    case 'ChangeFlowStructure':
      return changeFlowStructure(command, state);
    case 'ReplaceContent':
      return replaceContent(command, state);
    case 'RestoreVersion':
      return restoreVersion(command, state);
    case 'ReferenceArtifact':
      return referenceArtifact(command, state);
    case 'RequestDeletion':
      return requestDeletion(command, state);
    case 'ConfirmDeletion':
      return confirmDeletion(command, state);
    case 'DeleteWithCheckpoint':
      return deleteWithCheckpoint(command, state);
    default:
      return assertNever(command, 'artefact command');
  }
}

/**
 * The artefact aggregate (`artifact-{id}` streams): versions and optimistic concurrency of
 * documents, flows (per node), media and asset sets; references; confirmed deletion.
 */
export const artifactDecider: Decider<ArtifactCommand, ArtifactEvent, ArtifactState> = {
  initialState: initialArtifactState,
  decide: decideArtifact,
  evolve: evolveArtifact,
};
