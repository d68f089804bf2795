import { z } from 'zod';
import { callId as callIdSchema } from '@lomo/contracts';
import { defineTool, errorResult, okResult, type JsonValue, type ToolDefinition } from '@lomo/tools';
import type { GenerationJobView, GenerationRequests } from '../service/generation-requests.port';
import { formatMinor } from './job-note';

export const GENERATION_JOB_NOT_FOUND = 'GENERATION_JOB_NOT_FOUND';

const input = z
  .strictObject({
    jobId: z.uuid().optional().describe('The job id a media tool named in its pending note'),
    callId: callIdSchema.optional().describe('Or the id of the media tool call that ordered the job'),
  })
  .refine((ref) => (ref.jobId === undefined) !== (ref.callId === undefined), {
    message: 'give exactly one of jobId or callId',
  });

export type GenerationStatusInput = z.infer<typeof input>;

/** What the model reads; fields a job does not have yet are left out (JSON has no undefined). */
function statusOf(job: GenerationJobView): JsonValue {
  return {
    jobId: job.jobId,
    callId: job.callId,
    kind: job.kind,
    operation: job.operation,
    phase: job.phase,
    progress: job.progress,
    cost: {
      amountMinor: job.quote.amountMinor,
      currency: job.quote.currency,
      display: formatMinor(job.quote.amountMinor, job.quote.currency),
    },
    ...(job.artifactId !== undefined ? { artifactId: job.artifactId } : {}),
    ...(job.failure !== undefined ? { failure: { reason: job.failure.reason, message: job.failure.message } } : {}),
  };
}

/**
 * generation.status: a read of one media job. Domain 'core', not a media domain: a job outlives
 * the turn that ordered it, and a later "is my video ready?" arrives in a turn that may not have
 * asked for the video domain; the tool is one small read, so offering it always is cheap.
 */
export function generationStatusTool(requests: GenerationRequests): ToolDefinition<GenerationStatusInput> {
  return defineTool({
    name: 'generation.status',
    description:
      'Look up a media job (image, video, 3D, audio) by its job id or by the call id that ordered it: phase, progress, cost, the artefact it made or why it failed.',
    domain: 'core',
    sideEffect: 'read',
    idempotent: true,
    input,
    async run(ref, context) {
      const job = await requests.status(
        context.workspaceId,
        ref.jobId !== undefined ? { jobId: ref.jobId } : { callId: ref.callId as string },
      );
      if (job === undefined) {
        const named = ref.jobId !== undefined ? `job ${ref.jobId}` : `call ${ref.callId}`;
        return errorResult(GENERATION_JOB_NOT_FOUND, `No media job for ${named} in this workspace.`, false);
      }
      return okResult(statusOf(job));
    },
  });
}
