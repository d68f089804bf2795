import { streams, type EventEnvelope } from '@lomo/contracts';
import type { EventStore } from '@lomo/eventstore';
import type { ChecklistEvidence } from '@lomo/domain';

/** Why evidence does not show an item done; the tool's typed error says it to the model. */
export type EvidenceRefusal = { code: 'EVIDENCE_NOT_FOUND' | 'EVIDENCE_NOT_OF_TASK'; message: string };

/**
 * Evidence is what the streams hold, not what a model says: an artefact version that exists, of
 * an artefact this task created or uses (and not deleted), a generation job of this task that
 * completed, or a review card about this very item that the person approved. Pure over the
 * events read (see `verifyEvidence` for the reads); `itemId` is the item being marked done.
 */
export function judgeEvidence(
  evidence: ChecklistEvidence,
  taskId: string,
  workspaceId: string,
  events: readonly EventEnvelope[],
  itemId?: string,
): EvidenceRefusal | null {
  const own = events.filter((e) => e.metadata.workspaceId === workspaceId);
  if (evidence.kind === 'review') return judgeReview(evidence.checkpointId, itemId, own);
  if (evidence.kind === 'job') {
    const requested = own.find((e) => e.type === 'GenerationRequested');
    if (requested === undefined || !own.some((e) => e.type === 'GenerationCompleted'))
      return { code: 'EVIDENCE_NOT_FOUND', message: `No completed generation job ${evidence.jobId}` };
    if ((requested.data as { taskId?: string }).taskId !== taskId)
      return { code: 'EVIDENCE_NOT_OF_TASK', message: `Job ${evidence.jobId} belongs to another task` };
    return null;
  }
  const created = own.find((e) => e.type === 'ArtifactCreated');
  const versions = new Set<number>(created ? [1] : []);
  for (const e of own) {
    const version = (e.data as { version?: unknown }).version;
    if (e.type !== 'ArtifactCreated' && typeof version === 'number') versions.add(version);
  }
  if (created === undefined || !versions.has(evidence.version) || own.some((e) => e.type === 'ArtifactDeleted'))
    return {
      code: 'EVIDENCE_NOT_FOUND',
      message: `Artefact ${evidence.artifactId} has no version ${evidence.version}`,
    };
  const createdData = created.data as { taskId?: string; createdBy?: { taskId?: string } };
  const usedHere =
    createdData.taskId === taskId ||
    createdData.createdBy?.taskId === taskId ||
    own.some(
      (e) =>
        (e.type === 'ArtifactReferenced' && (e.data as { taskId: string }).taskId === taskId) ||
        (e.data as { by?: { taskId?: string } }).by?.taskId === taskId,
    );
  if (!usedHere)
    return {
      code: 'EVIDENCE_NOT_OF_TASK',
      message: `Artefact ${evidence.artifactId} is neither made nor used by this task`,
    };
  return null;
}

/** Only the person's resolution counts: one the agent recorded is no approval (task-evolve.ts). */
function judgeReview(
  checkpointId: string,
  itemId: string | undefined,
  taskEvents: readonly EventEnvelope[],
): EvidenceRefusal | null {
  const opened = taskEvents.find(
    (e) => e.type === 'CheckpointOpened' && (e.data as { checkpointId: string }).checkpointId === checkpointId,
  );
  const data = opened?.data as { kind?: string; itemId?: string } | undefined;
  if (data?.kind !== 'review' || data.itemId === undefined || data.itemId !== itemId)
    return { code: 'EVIDENCE_NOT_FOUND', message: `No review card ${checkpointId} about item ${itemId ?? '(none)'}` };
  const approved = taskEvents.some((e) => {
    if (e.type !== 'CheckpointResolved' || e.metadata.actor?.kind !== 'user') return false;
    const resolution = e.data as { checkpointId: string; decision: string };
    return resolution.checkpointId === checkpointId && ['approve', 'choose'].includes(resolution.decision);
  });
  if (!approved) return { code: 'EVIDENCE_NOT_FOUND', message: `Review card ${checkpointId} was not approved` };
  return null;
}

const streamOf = (evidence: ChecklistEvidence, taskId: string): string => {
  switch (evidence.kind) {
    case 'job':
      return streams.generation(evidence.jobId);
    case 'artifact_version':
      return streams.artifact(evidence.artifactId);
    case 'review':
      return streams.task(taskId);
  }
};

/** Reads the one stream the evidence names and judges it. */
export async function verifyEvidence(
  store: Pick<EventStore, 'readStream'>,
  evidence: ChecklistEvidence,
  taskId: string,
  workspaceId: string,
  itemId?: string,
): Promise<EvidenceRefusal | null> {
  return judgeEvidence(evidence, taskId, workspaceId, await store.readStream(streamOf(evidence, taskId)), itemId);
}
