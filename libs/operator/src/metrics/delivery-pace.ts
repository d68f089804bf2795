import type { EventEnvelope } from '@lomo/contracts';
import { dataOf, finding, idOf, taskOfEvent, turnTasks, type Finding } from './collaboration-log';

export interface DeliveryPace {
  /** Runtime model steps plus the router's semantic decisions. */
  modelCalls: number;
  /**
   * Tokens (input + output) of those calls as the endpoint reported them: what the model spend of
   * a run was (memory extraction and summaries are side calls the log does not price).
   */
  modelTokens: number;
  /** Artefacts the agent or a paid job created in a task. */
  deliveredArtifacts: number;
  /** modelCalls / deliveredArtifacts; null when nothing was delivered. */
  modelCallsPerArtifact: number | null;
  /** From each approval to the task's next progress, in ms: median and max (null without approvals). */
  approvalToProgressMsMedian: number | null;
  approvalToProgressMsMax: number | null;
  /** Approvals after which the task never progressed: the agent waited for a "continue". */
  stalledApprovals: Finding[];
}

const median = (values: readonly number[]): number | null => {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/**
 * An event that moves a task forward: a job ordered, an artefact made or revised by it, an item
 * advanced, the task done, or the runtime finding every item settled (approving a plan's last
 * review leaves nothing to do: that is the end of the work, not a wait for "continue").
 */
function isProgress(e: EventEnvelope): boolean {
  switch (e.type) {
    case 'GenerationRequested':
    case 'TaskCompleted':
      return true;
    case 'ContinuationDecided':
      return dataOf<{ decision: string }>(e).decision === 'finish';
    case 'ArtifactCreated':
      return dataOf<{ createdBy: { kind: string } }>(e).createdBy.kind !== 'person';
    case 'ArtifactRevised':
    case 'FlowNodeRevised':
      return dataOf<{ by: { kind: string } }>(e).by.kind !== 'person';
    case 'ChecklistItemChanged': {
      const status = dataOf<{ status: string }>(e).status;
      return status === 'in_progress' || status === 'done';
    }
    default:
      return false;
  }
}

/** Model calls per delivered artefact, and how soon an approval turns into progress. */
export function deliveryPace(events: readonly EventEnvelope[]): DeliveryPace {
  const turns = turnTasks(events);
  let modelCalls = 0;
  let modelTokens = 0;
  const delivered = new Set<string>();
  const waiting = new Map<string, EventEnvelope[]>(); // task → approvals not followed by progress yet
  const delays: number[] = [];
  for (const e of events) {
    if (e.type === 'ModelStepCommitted') {
      modelCalls += 1;
      // Required by the event's schema; hand-built logs of tests may leave it out.
      const { usage } = dataOf<{ usage?: { inputTokens: number; outputTokens: number } }>(e);
      modelTokens += (usage?.inputTokens ?? 0) + (usage?.outputTokens ?? 0);
    }
    if (e.type === 'RoutingDecided') {
      const step = dataOf<{ modelStep?: { attempts: number; inputTokens: number; outputTokens: number } }>(e).modelStep;
      modelCalls += step?.attempts ?? 0;
      modelTokens += (step?.inputTokens ?? 0) + (step?.outputTokens ?? 0);
    }
    if (e.type === 'ArtifactCreated') {
      const created = dataOf<{ artifactId: string; createdBy: { kind: string }; taskId?: string }>(e);
      if (created.createdBy.kind !== 'person' && created.taskId !== undefined) delivered.add(created.artifactId);
    }
    const taskId = taskOfEvent(e, turns);
    if (taskId === null) continue;
    if (
      e.type === 'CheckpointResolved' &&
      dataOf<{ decision: string }>(e).decision === 'approve' &&
      idOf(e.metadata.streamId, 'task') !== null
    ) {
      waiting.set(taskId, [...(waiting.get(taskId) ?? []), e]);
    } else if (isProgress(e)) {
      for (const approval of waiting.get(taskId) ?? [])
        delays.push(Date.parse(e.metadata.occurredAt) - Date.parse(approval.metadata.occurredAt));
      waiting.delete(taskId);
    }
  }
  return {
    modelCalls,
    modelTokens,
    deliveredArtifacts: delivered.size,
    modelCallsPerArtifact: delivered.size === 0 ? null : modelCalls / delivered.size,
    approvalToProgressMsMedian: median(delays),
    approvalToProgressMsMax: delays.length === 0 ? null : Math.max(...delays),
    stalledApprovals: [...waiting].flatMap(([taskId, approvals]) =>
      approvals.map((a) => finding(a, taskId, 'approved, and the task never moved after it')),
    ),
  };
}
