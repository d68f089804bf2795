import { AggregateStream, handleCommand, metadataOf, type StreamWrite } from '@lomo/command-handling';
import { streams, type Clock, type IdGenerator, type WakeUpMessage } from '@lomo/contracts';
import type { EventStore } from '@lomo/eventstore';
import type { Logger } from '@lomo/observability';
import { accountDecider } from '../account/account-decider';
import { AccountErrors, AccountRefusedError } from '../account/account-errors';
import { accountEventTypes } from '../account/account-events';
import { generationJobDecider } from '../job/job-decider';
import { generationJobEventTypes } from '../job/job-events';
import {
  checkApprovalCheckpoint,
  resolveApprovalCheckpoint,
  type ApprovalCheckpoint,
} from './resolve-approval-checkpoint';

export interface ApproveQuoteDeps {
  store: EventStore;
  ids: IdGenerator;
  clock: Clock;
  /** Wakes the task whose checkpoint was resolved (the runtime's publishWakeUp); the watchdog covers a lost one. */
  wake?: (message: WakeUpMessage) => Promise<void>;
  logger?: Logger;
}

export interface ApproveQuoteRequest {
  /** The caller's workspace: only its account is read, so another workspace's quote is not found. */
  workspaceId: string;
  quoteId: string;
  /** The authenticated person; the agent never approves. */
  userId: string;
}

export interface ApproveQuoteResult {
  quoteId: string;
  jobId: string;
  /** False on a repeat: the quote was approved already. */
  changed: boolean;
  /** The account write (and the task's, when its checkpoint was resolved now). */
  writes: StreamWrite[];
}

const notFound = (quoteId: string) =>
  new AccountRefusedError(AccountErrors.QUOTE_NOT_FOUND, `No quote ${quoteId}`, { quoteId });

/** The job's approval checkpoint, when the job asked for one (GenerationApprovalRequested). */
async function checkpointOf(deps: ApproveQuoteDeps, request: ApproveQuoteRequest, jobId: string) {
  const job = await AggregateStream.read(
    deps.store,
    streams.generation(jobId),
    generationJobDecider,
    generationJobEventTypes,
  );
  const state = job.state;
  if (state.status === 'none' || state.workspaceId !== request.workspaceId) return { found: false as const };
  const asked = state.status === 'requested' ? state.approvalAsked : null;
  if (asked === null || asked.quoteId !== request.quoteId) return { found: true as const, checkpoint: undefined };
  const checkpoint: ApprovalCheckpoint = {
    workspaceId: request.workspaceId,
    taskId: state.taskId,
    checkpointId: asked.checkpointId,
    callId: state.callId,
    userId: request.userId,
  };
  return { found: true as const, checkpoint };
}

/**
 * A person approves a quote: `QuoteApproved` on the workspace's account stream, decided by the
 * account decider on the folded stream and appended at its revision, then the task's approval
 * checkpoint for the job's call is resolved by the same person. A repeat changes nothing. The
 * generation worker reacts to QuoteApproved (reserve, submit once); nothing is sent here.
 *
 * Refusals append nothing: an unknown quote (or one of another workspace) is QUOTE_NOT_FOUND, and
 * a checkpoint that could not be resolved (task stopped, another call) is refused before the
 * approval is written. A checkpoint already resolved is fine.
 */
export async function approveQuote(deps: ApproveQuoteDeps, request: ApproveQuoteRequest): Promise<ApproveQuoteResult> {
  const accountStream = streams.account(request.workspaceId);
  const account = await AggregateStream.read(deps.store, accountStream, accountDecider, accountEventTypes);
  const quote = account.state.quotes[request.quoteId];
  if (quote === undefined) throw notFound(request.quoteId);
  const job = await checkpointOf(deps, request, quote.jobId);
  if (!job.found) throw notFound(request.quoteId);
  // Only while the job still waits: once it was submitted or failed, the checkpoint is moot.
  if (job.checkpoint !== undefined && quote.approval === null)
    await checkApprovalCheckpoint(deps.store, job.checkpoint);

  // handleCommand folds again and appends at that revision; a concurrent writer means deciding
  // again on fresh state, where a repeat of this approval is a no-op.
  const approved = await handleCommand(
    deps.store,
    accountStream,
    accountDecider,
    {
      type: 'ApproveQuote',
      quoteId: request.quoteId,
      approvedBy: request.userId,
      ...(job.checkpoint !== undefined ? { checkpointId: job.checkpoint.checkpointId } : {}),
      by: { kind: 'user', userId: request.userId },
      at: deps.clock.now().toISOString(),
    },
    {
      eventTypes: accountEventTypes,
      ids: deps.ids,
      metadata: metadataOf({
        workspaceId: request.workspaceId,
        actor: { kind: 'user', userId: request.userId },
        fallbackCorrelationId: quote.jobId,
      }),
    },
  );
  const writes = [...approved.writes];
  if (job.checkpoint !== undefined) {
    const resolved = await resolveApprovalCheckpoint(deps.store, deps.ids, job.checkpoint);
    writes.push(...resolved.writes);
    if (resolved.changed) await wake(deps, job.checkpoint, resolved.turnId);
  }
  return { quoteId: request.quoteId, jobId: quote.jobId, changed: approved.changed, writes };
}

async function wake(deps: ApproveQuoteDeps, c: ApprovalCheckpoint, turnId: string | undefined): Promise<void> {
  if (deps.wake === undefined) return;
  const message: WakeUpMessage = {
    kind: 'wake',
    workspaceId: c.workspaceId,
    taskId: c.taskId,
    ...(turnId !== undefined ? { turnId } : {}),
    reason: 'approval',
  };
  await deps
    .wake(message)
    .catch((error: unknown) =>
      deps.logger?.warn(
        { taskId: c.taskId, error: error instanceof Error ? error.message : String(error) },
        'wake after an approved quote not published; the watchdog finds the waiting turn',
      ),
    );
}
