import { taskEvents, type EventEnvelope } from '@lomo/contracts';

export interface RecordedApproval {
  callId: string;
  checkpointId: string;
  resolvedBy: string;
}

/**
 * The calls a person approved, from a task's events in stream order. An approval counts only
 * when it resolves an approval checkpoint that was opened for the same call id; a later
 * resolution of that call (a reject) takes it back; and an approval written by the agent itself
 * is no approval at all.
 */
export function approvedCallIds(taskEventsInOrder: readonly EventEnvelope[]): ReadonlyMap<string, RecordedApproval> {
  const askedFor = new Map<string, string>();
  const approved = new Map<string, RecordedApproval>();
  for (const event of taskEventsInOrder) {
    if (event.type === 'CheckpointOpened') {
      const opened = taskEvents.CheckpointOpened.safeParse(event.data);
      if (opened.success && opened.data.kind === 'approval' && opened.data.callId !== undefined) {
        askedFor.set(opened.data.checkpointId, opened.data.callId);
      }
      continue;
    }
    if (event.type !== 'CheckpointResolved') continue;
    const resolved = taskEvents.CheckpointResolved.safeParse(event.data);
    if (!resolved.success) continue;
    const { checkpointId, callId, decision, resolvedBy } = resolved.data;
    if (callId === undefined || askedFor.get(checkpointId) !== callId) continue;
    if (decision === 'approve' && event.metadata.actor.kind !== 'agent') {
      approved.set(callId, { callId, checkpointId, resolvedBy });
    } else {
      approved.delete(callId);
    }
  }
  return approved;
}
