import type { EventEnvelope } from '@lomo/contracts';
import { dataOf, finding, idOf, normalized, type CountedMetric } from './collaboration-log';

interface Requested {
  jobId: string;
  taskId: string;
  callId: string;
  kind: string;
  operation: string;
  params: { prompt: string; options: Record<string, unknown> };
}

/**
 * A paid job that repeats one the task already has, with nothing new from the person in
 * between: the same kind, operation and prompt (normalised) and options as an earlier job of
 * the task that did not fail, or a second job for the same tool call (its idempotency key).
 * A redo the person asked for (a message delivered to the task, or a review adjusted) is new work.
 */
export function duplicateGenerations(events: readonly EventEnvelope[]): CountedMetric {
  const findings: CountedMetric['findings'] = [];
  const failed = new Set<string>();
  const jobsOfTask = new Map<string, Array<{ key: string; jobId: string }>>();
  const calls = new Set<string>();
  for (const e of events) {
    if (e.type === 'GenerationFailed') {
      const jobId = idOf(e.metadata.streamId, 'generation');
      if (jobId !== null) failed.add(jobId);
      continue;
    }
    const taskId = idOf(e.metadata.streamId, 'task');
    if (
      taskId !== null &&
      (e.type === 'MessageDeliveredToInbox' ||
        (e.type === 'CheckpointResolved' && dataOf<{ decision: string }>(e).decision === 'adjust'))
    ) {
      jobsOfTask.set(taskId, []);
      continue;
    }
    if (e.type !== 'GenerationRequested') continue;
    const job = dataOf<Requested>(e);
    if (calls.has(job.callId)) {
      findings.push(finding(e, job.taskId, `a second job for call ${job.callId}`));
      continue;
    }
    calls.add(job.callId);
    const key = JSON.stringify([job.kind, job.operation, normalized(job.params.prompt), job.params.options]);
    const earlier = (jobsOfTask.get(job.taskId) ?? []).find((j) => j.key === key && !failed.has(j.jobId));
    if (earlier !== undefined)
      findings.push(
        finding(e, job.taskId, `repeats job ${earlier.jobId} (${job.kind} "${job.params.prompt.slice(0, 80)}")`),
      );
    jobsOfTask.set(job.taskId, [...(jobsOfTask.get(job.taskId) ?? []), { key, jobId: job.jobId }]);
  }
  return { count: findings.length, findings };
}
