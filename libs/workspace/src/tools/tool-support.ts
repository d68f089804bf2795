import { deterministicUuid, type ArtifactAuthor } from '@lomo/contracts';
import {
  errorResult,
  errorResultFromThrown,
  okResult,
  type JsonValue,
  type ToolContext,
  type ToolResult,
} from '@lomo/tools';
import type { ArtifactWriteMeta } from '../artifact-commands.port';
import { ArtifactRefusedError } from '../artifact-errors';
import type { WorkspaceReadModel } from '../workspace-read.port';

/** The agent inside this task's call: who every workspace tool writes as. */
export const agentAuthor = (context: ToolContext): ArtifactAuthor => ({
  kind: 'agent',
  taskId: context.taskId,
  callId: context.callId,
});

export const writeMeta = (context: ToolContext): ArtifactWriteMeta => ({
  workspaceId: context.workspaceId,
  correlationId: context.correlationId ?? context.turnId,
  causationId: context.callId,
  actor: { kind: 'agent' },
});

/**
 * An artefact created by a call has an id derived from the call id, so a retried or taken-over
 * call lands on the same artefact (the create is then a no-op) instead of making a second one.
 */
export const artifactIdForCall = (context: ToolContext): string =>
  deterministicUuid('lomo.workspace.tool-artifact', context.workspaceId, context.callId);

/**
 * The convention every workspace tool's ok output follows: a top-level `artifact` naming the
 * artefact and the version read or written. The change-notice fan-out derives from it which
 * version each task last saw, so no extra event is written per read.
 */
export const artifactResult = (artifactId: string, version: number, rest: Record<string, JsonValue> = {}) =>
  okResult({ artifact: { artifactId, version }, ...rest });

/**
 * A refusal as the model reads it: the refusal's own code, and a message that says the current
 * version and what changed, so the model re-reads and resubmits instead of retrying blindly.
 */
export function refusalResult(error: ArtifactRefusedError): ToolResult {
  const { currentVersion, changedNodes, failedEdits, currentStructureVersion } = error.details;
  const parts = [error.message];
  if (currentVersion !== undefined) parts.push(`current version: ${currentVersion}`);
  if (changedNodes !== undefined && changedNodes.length > 0) {
    parts.push(`changed nodes: ${changedNodes.map((n) => `${n.nodeId}@${n.version}`).join(', ')}`);
  }
  if (failedEdits !== undefined && failedEdits.length > 0) {
    parts.push(`failed edits: ${failedEdits.map((f) => `#${f.index} ${f.reason.replace('_', ' ')}`).join(', ')}`);
  }
  if (currentStructureVersion !== undefined) parts.push(`current structure version: ${currentStructureVersion}`);
  if (error.code !== 'ARTIFACT_NOT_FOUND' && error.code !== 'ARTIFACT_DELETED' && currentVersion !== undefined) {
    parts.push('read the artefact again and resubmit against the current version');
  }
  return errorResult(error.code, parts.join('; '), false);
}

/** Runs a tool body; refusals become typed results, anything else the registry's usual error. */
export async function guarded(body: () => Promise<ToolResult>): Promise<ToolResult> {
  try {
    return await body();
  } catch (error) {
    if (error instanceof ArtifactRefusedError) return refusalResult(error);
    return errorResultFromThrown(error);
  }
}

/**
 * A write refused as stale may be this very call's own earlier write (a retry after a crash
 * between the append and the recorded result): if the version history shows a version by this
 * call, that version is the call's result, so the retry is answered as the first run was.
 */
export async function ownEarlierWrite(
  readModel: WorkspaceReadModel,
  context: ToolContext,
  artifactId: string,
): Promise<number | undefined> {
  const view = await readModel.artifact(context.workspaceId, artifactId);
  const mine = view?.versions.filter(
    (v) => v.by.kind === 'agent' && v.by.taskId === context.taskId && v.by.callId === context.callId,
  );
  return mine?.at(-1)?.version;
}

export const notFoundResult = (artifactId: string) =>
  errorResult('ARTIFACT_NOT_FOUND', `No artefact ${artifactId} in this workspace`, false);
