import { streams, type EventEnvelope } from '@lomo/contracts';
import type { EventStore } from '@lomo/eventstore';
import type { ChecklistEvidence, ChecklistItemOutput } from '@lomo/domain';

/** Why evidence does not show an item done; the tool's typed error says it to the model. */
export type EvidenceRefusal = {
  code: 'EVIDENCE_NOT_FOUND' | 'EVIDENCE_NOT_OF_TASK' | 'EVIDENCE_MISMATCH';
  message: string;
};

/** What one stream's evidence shows: nothing wrong, with the artefacts it links to the item. */
export type EvidenceVerdict = { ok: true; linkedArtifactIds: string[] } | { ok: false; refusal: EvidenceRefusal };

type MediaKind = Extract<ChecklistItemOutput, { kind: 'media' }>['media'];

/**
 * Evidence is what the streams hold, not what a model says: an artefact version that exists, of
 * an artefact this task created or uses (and not deleted), a generation job of this task that
 * completed (of the item's media kind, when the item declares one), or a review card about this
 * very item that the person approved. Pure over the events of the one stream the evidence names
 * (for `jobs`, see `judgeJobs`); `itemId` is the item being marked done.
 */
export function judgeEvidence(
  evidence: Exclude<ChecklistEvidence, { kind: 'jobs' }>,
  taskId: string,
  workspaceId: string,
  events: readonly EventEnvelope[],
  itemId?: string,
  media?: MediaKind,
): EvidenceRefusal | null {
  const verdict = judge(evidence, taskId, workspaceId, events, itemId, media);
  return verdict.ok ? null : verdict.refusal;
}

function judge(
  evidence: Exclude<ChecklistEvidence, { kind: 'jobs' }>,
  taskId: string,
  workspaceId: string,
  events: readonly EventEnvelope[],
  itemId: string | undefined,
  media: MediaKind | undefined,
): EvidenceVerdict {
  const own = events.filter((e) => e.metadata.workspaceId === workspaceId);
  switch (evidence.kind) {
    case 'review':
      return refusalOr(judgeReview(evidence.checkpointId, itemId, own), []);
    case 'job':
      return judgeJob(evidence.jobId, taskId, own, media);
    case 'artifact_version':
      return refusalOr(judgeVersion(evidence.artifactId, evidence.version, taskId, own), [evidence.artifactId]);
  }
}

const refusalOr = (refusal: EvidenceRefusal | null, linkedArtifactIds: string[]): EvidenceVerdict =>
  refusal === null ? { ok: true, linkedArtifactIds } : { ok: false, refusal };

/** A completed job of this task; its output artefact is linked to the item. */
function judgeJob(
  jobId: string,
  taskId: string,
  own: readonly EventEnvelope[],
  media: MediaKind | undefined,
): EvidenceVerdict {
  const requested = own.find((e) => e.type === 'GenerationRequested');
  const completed = own.find((e) => e.type === 'GenerationCompleted');
  if (requested === undefined || completed === undefined)
    return { ok: false, refusal: { code: 'EVIDENCE_NOT_FOUND', message: `No completed generation job ${jobId}` } };
  const order = requested.data as { taskId?: string; kind?: string };
  if (order.taskId !== taskId)
    return { ok: false, refusal: { code: 'EVIDENCE_NOT_OF_TASK', message: `Job ${jobId} belongs to another task` } };
  if (media !== undefined && order.kind !== media)
    return {
      ok: false,
      refusal: { code: 'EVIDENCE_MISMATCH', message: `Job ${jobId} made ${order.kind ?? 'something'}, not ${media}` },
    };
  const artifactId = (completed.data as { artifactId?: unknown }).artifactId;
  return { ok: true, linkedArtifactIds: typeof artifactId === 'string' ? [artifactId] : [] };
}

function judgeVersion(
  artifactId: string,
  version: number,
  taskId: string,
  own: readonly EventEnvelope[],
): EvidenceRefusal | null {
  const created = own.find((e) => e.type === 'ArtifactCreated');
  const versions = new Set<number>(created ? [1] : []);
  for (const e of own) {
    const v = (e.data as { version?: unknown }).version;
    if (e.type !== 'ArtifactCreated' && typeof v === 'number') versions.add(v);
  }
  if (created === undefined || !versions.has(version) || own.some((e) => e.type === 'ArtifactDeleted'))
    return { code: 'EVIDENCE_NOT_FOUND', message: `Artefact ${artifactId} has no version ${version}` };
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
    return { code: 'EVIDENCE_NOT_OF_TASK', message: `Artefact ${artifactId} is neither made nor used by this task` };
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

const streamOf = (evidence: Exclude<ChecklistEvidence, { kind: 'jobs' }>, taskId: string): string => {
  switch (evidence.kind) {
    case 'job':
      return streams.generation(evidence.jobId);
    case 'artifact_version':
      return streams.artifact(evidence.artifactId);
    case 'review':
      return streams.task(taskId);
  }
};

/**
 * Reads the stream the evidence names (each job's, for `jobs`) and judges it. Every job of a
 * `jobs` evidence must hold; the artefacts they made are linked to the item.
 */
export async function verifyEvidence(
  store: Pick<EventStore, 'readStream'>,
  evidence: ChecklistEvidence,
  taskId: string,
  workspaceId: string,
  itemId?: string,
  output?: ChecklistItemOutput | null,
): Promise<EvidenceVerdict> {
  const media = output?.kind === 'media' ? output.media : undefined;
  const singles: Array<Exclude<ChecklistEvidence, { kind: 'jobs' }>> =
    evidence.kind === 'jobs' ? evidence.jobIds.map((jobId) => ({ kind: 'job' as const, jobId })) : [evidence];
  const verdicts = await Promise.all(
    singles.map(async (single) =>
      judge(single, taskId, workspaceId, await store.readStream(streamOf(single, taskId)), itemId, media),
    ),
  );
  const refused = verdicts.find((v) => !v.ok);
  if (refused !== undefined) return refused;
  return { ok: true, linkedArtifactIds: verdicts.flatMap((v) => (v.ok ? v.linkedArtifactIds : [])) };
}
