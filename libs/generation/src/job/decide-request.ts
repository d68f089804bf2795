import { callId as callIdSchema } from '@lomo/contracts';
import type { AskApproval, RequestGeneration, StartSubmission } from './job-commands';
import { GenerationJobErrors } from './job-errors';
import type { GenerationJobEvent } from './job-events';
import { existing, instant, invalid, isFinal, isWholeMinor, refuse } from './job-guards';
import { generationJobId } from './job-ids';
import type { GenerationJobState } from './job-state';

/**
 * The first event of a job. The stream is new only once per (workspace, key): the command
 * handler appends with "no stream" expected, and against an existing job the decider answers a
 * repeat with nothing, so a retried or taken-over tool call gets the first job back. The first
 * request wins: a repeat with other params is still the same call and orders nothing new.
 */
export function requestGeneration(command: RequestGeneration, state: GenerationJobState): GenerationJobEvent[] {
  const jobId = generationJobId(command.workspaceId, command.callId);
  if (state.status !== 'none') {
    if (state.workspaceId === command.workspaceId && state.callId === command.callId) return [];
    return refuse(
      GenerationJobErrors.JOB_CONFLICT,
      `Job ${state.jobId} belongs to call ${state.callId} of workspace ${state.workspaceId}`,
      { jobId: state.jobId },
    );
  }
  if (!callIdSchema.safeParse(command.callId).success)
    invalid(`The idempotency key must be the call id {turnId}:{step}:{index}, got ${command.callId}`);
  if (!command.callId.startsWith(`${command.turnId}:`))
    invalid(`Call ${command.callId} does not belong to turn ${command.turnId}`);
  const { quote } = command;
  if (quote.provider !== command.provider)
    invalid(`The quote is from ${quote.provider}, the job goes to ${command.provider}`);
  if (!isWholeMinor(quote.amountMinor) || !isWholeMinor(quote.unitPriceMinor)) invalid('Prices are whole minor units');
  if (command.params.prompt.trim() === '') invalid('A generation needs a prompt');
  const data = {
    jobId,
    workspaceId: command.workspaceId,
    taskId: command.taskId,
    turnId: command.turnId,
    callId: command.callId,
    provider: command.provider,
    kind: command.kind,
    operation: command.operation,
    params: { prompt: command.params.prompt, options: { ...command.params.options } },
    quote: { ...quote },
    requestedAt: instant(command.at),
  };
  return [{ type: 'GenerationRequested', data }];
}

/**
 * Records that the person was asked to approve the job's quote. After the submit, or once the
 * job ended, there is nothing to approve any more: a late ask is a no-op, as is a repeat.
 */
export function askApproval(command: AskApproval, state: GenerationJobState): GenerationJobEvent[] {
  const job = existing(state);
  if (isFinal(job) || job.status !== 'requested' || job.approvalAsked !== null) return [];
  if (!/^[A-Z][A-Z0-9_]{1,63}$/.test(command.refusal)) invalid(`Not a refusal code: ${command.refusal}`);
  return [
    {
      type: 'GenerationApprovalRequested',
      data: {
        quoteId: command.quoteId,
        checkpointId: command.checkpointId,
        refusal: command.refusal,
        askedAt: instant(command.at),
      },
    },
  ];
}

/**
 * The intent to send, recorded before sending (as a tool call is started before it runs). Only
 * a requested job that nobody started sending can start: a repeat, or a job already submitted
 * or ended, decides nothing, and the writer that decided nothing must not send.
 */
export function startSubmission(command: StartSubmission, state: GenerationJobState): GenerationJobEvent[] {
  const job = existing(state);
  if (job.status !== 'requested' || job.submissionStartedAt !== null) return [];
  return [{ type: 'GenerationSubmissionStarted', data: { startedAt: instant(command.at) } }];
}
