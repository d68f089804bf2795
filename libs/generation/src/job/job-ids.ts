import { deterministicUuid } from '@lomo/contracts';

/**
 * The job of one tool call: derived from (workspaceId, idempotencyKey), so a second request for
 * the same call (a retry, a takeover by a newer execution generation) lands on the same
 * `generation-{jobId}` stream, where appending `GenerationRequested` with "no stream" expected
 * is the uniqueness constraint (DESIGN.md §3). The key is the call id `{turnId}:{step}:{index}`:
 * it never includes the execution generation, or a takeover would order the media twice.
 */
export const generationJobId = (workspaceId: string, idempotencyKey: string): string =>
  deterministicUuid('lomo.generation.job', workspaceId, idempotencyKey);

/** The artefact a job's result becomes: one per job, so a repeated completion makes no second one. */
export const generationArtifactId = (jobId: string): string => deterministicUuid('lomo.generation.artifact', jobId);
