/**
 * A media item of the plan (README.md beside this file, "Plans"): `count` generations, one call
 * per step, then done with evidence of every job. Reads only the calls the prompt shows.
 */
import { callsSinceLast, type Done } from './plan-calls';

export type MediaStep =
  /** Make the `index`-th shot (poster): fewer calls than `count` are visible. */
  | { kind: 'call'; index: number }
  /** Every call is made, not every one has completed. */
  | { kind: 'pending' }
  | { kind: 'done'; evidence: Record<string, unknown> }
  /** Completed results that name neither a job nor an artefact: nothing to show. */
  | { kind: 'none' };

const MAX_JOBS = 20;

/**
 * The item's calls are those of its generation tool since the last checklist.update among ALL
 * the calls the prompt shows (`visible`, not only those after the latest user message): the
 * runtime renders the turn's recent steps, so a job an earlier step (or turn, when the context
 * shows it) made is counted, not ordered again. Done needs every job: `{kind: job}` for one,
 * `{kind: jobs, jobIds}` for several (the runtime checks each completed, of this task and kind,
 * and that there are as many as the item's count). A result with no job id but an artefact id
 * (an older media tool) gives that artefact's first version.
 */
export function mediaStep(count: number, toolName: string, visible: readonly Done[], updateTool: string): MediaStep {
  const made = callsSinceLast(visible, updateTool).filter((c) => c.name === toolName);
  if (made.length < count) return { kind: 'call', index: made.length };
  const completed = made.filter((c) => c.outcome?.ok === true);
  if (completed.length < count) return { kind: 'pending' };
  const jobIds = [
    ...new Set(
      completed.map((c) => c.outcome?.result.jobId).filter((id): id is string => typeof id === 'string' && id !== ''),
    ),
  ].slice(0, MAX_JOBS);
  if (jobIds.length === 1) return { kind: 'done', evidence: { kind: 'job', jobId: jobIds[0] } };
  if (jobIds.length > 1) return { kind: 'done', evidence: { kind: 'jobs', jobIds } };
  const artefact = completed
    .map((c) => c.outcome?.result.artifactId)
    .find((id): id is string => typeof id === 'string');
  if (artefact !== undefined)
    return { kind: 'done', evidence: { kind: 'artifact_version', artifactId: artefact, version: 1 } };
  return { kind: 'none' };
}
