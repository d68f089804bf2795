import { streams } from '@lomo/contracts';
import { at, genIds, jobHistory, jobOf, requestOf } from '../testing/generation.fixtures';
import { ledgerEntryId } from '../account/account-ids';
import type { GenerationJobEvent } from '../job/job-events';
import type { GenerationJobDocument } from './generation-documents';
import { generationJobsProjection } from './generation-jobs.projection';
import { project, storedEvents } from './testing/project-events';
import { eraseProjectionType } from '@lomo/read-models';

const jobId = jobOf();
const request = requestOf();
const result = { hash: 'b'.repeat(64), bytes: 2048, contentType: 'image/png' };
const definition = eraseProjectionType(generationJobsProjection);

async function documentAfter(events: GenerationJobEvent[], extra: GenerationJobEvent[] = []) {
  const stored = storedEvents({
    streamId: streams.generation(jobId),
    workspaceId: genIds.workspace,
    events: [...events, ...extra],
  });
  const docs = await project(definition, stored);
  return docs.get(jobId) as GenerationJobDocument | undefined;
}

const ask = {
  type: 'AskApproval',
  quoteId: request.quote.quoteId,
  checkpointId: genIds.checkpoint,
  refusal: 'PAYMENT_QUOTE_NOT_APPROVED',
  at: at(1),
} as const;
const submit = [
  { type: 'StartSubmission', at: at(2) },
  { type: 'RecordSubmission', upstreamJobId: 'up-1', at: at(3) },
] as const;
const charge = {
  type: 'RecordCharge',
  entryId: ledgerEntryId(jobId, 'charge'),
  amountMinor: 400,
  currency: 'USD',
  at: at(3),
} as const;
const progress = (p: number, s: 'queued' | 'processing', t: number) =>
  ({ type: 'RecordProgress', progress: p, status: s, source: 'poll', at: at(t) }) as const;

describe('generation_jobs projection', () => {
  it('a requested job shows its facts, its quote and phase requested', async () => {
    const doc = await documentAfter(jobHistory(request));
    expect(doc).toMatchObject({
      workspaceId: genIds.workspace,
      created: true,
      jobId,
      taskId: genIds.task,
      turnId: genIds.turn,
      callId: request.callId,
      provider: 'simulated',
      kind: 'image',
      operation: 'image.generate',
      phase: 'requested',
      progress: 0,
      quote: { quoteId: request.quote.quoteId, amountMinor: 400, currency: 'USD', units: 1, unit: 'image' },
      requestedAt: request.at,
      artifactId: null,
      failure: null,
    });
  });

  it('is awaiting_approval after GenerationApprovalRequested, and stays so through the submission start until submitted', async () => {
    const asked = await documentAfter(jobHistory(request, ask));
    const starting = await documentAfter(jobHistory(request, ask, submit[0]));
    const submitted = await documentAfter(jobHistory(request, ask, ...submit));
    expect([asked?.phase, starting?.phase, submitted?.phase]).toEqual([
      'awaiting_approval',
      'awaiting_approval',
      'submitted',
    ]);
    expect(asked?.approval).toEqual({
      quoteId: request.quote.quoteId,
      checkpointId: genIds.checkpoint,
      refusal: 'PAYMENT_QUOTE_NOT_APPROVED',
      askedAt: at(1),
    });
    expect(submitted?.upstreamJobId).toBe('up-1');
  });

  it('keeps the latest accepted progress; an older or lower report stored by a stale writer changes nothing', async () => {
    const history = jobHistory(request, ...submit, charge, progress(10, 'queued', 4), progress(40, 'processing', 5));
    // Appended by a stale writer: the decider would not have produced it after 40.
    const stale = {
      type: 'GenerationProgressed',
      data: { progress: 20, status: 'processing', source: 'poll', observedAt: at(6) },
    } as GenerationJobEvent;
    const doc = await documentAfter(history, [stale]);
    expect(doc).toMatchObject({ phase: 'submitted', progress: 40, lastStatus: 'processing', chargedMinor: 400 });
  });

  it('a completed job is at 100 with its artefact; a failure after completion changes nothing', async () => {
    const history = jobHistory(request, ...submit, charge, progress(60, 'processing', 4), {
      type: 'CompleteGeneration',
      result,
      artifactId: genIds.artifact,
      at: at(9),
    });
    const late = {
      type: 'GenerationFailed',
      data: { reason: 'upstream_failed', message: 'late', failedAt: at(10) },
    } as GenerationJobEvent;
    const doc = await documentAfter(history, [late]);
    expect(doc).toMatchObject({
      phase: 'completed',
      progress: 100,
      artifactId: genIds.artifact,
      completedAt: at(9),
      failure: null,
    });
  });

  it('a failed charged job shows the failure, the charge and its refund', async () => {
    const doc = await documentAfter(
      jobHistory(
        request,
        ...submit,
        charge,
        { type: 'FailGeneration', reason: 'upstream_failed', message: 'content policy', at: at(7) },
        {
          type: 'RecordRefund',
          entryId: ledgerEntryId(jobId, 'refund'),
          amountMinor: 400,
          currency: 'USD',
          reason: 'upstream_failed',
          at: at(8),
        },
      ),
    );
    expect(doc).toMatchObject({
      phase: 'failed',
      failure: { reason: 'upstream_failed', message: 'content policy' },
      failedAt: at(7),
      chargedMinor: 400,
      refundedMinor: 400,
      upstreamJobId: 'up-1',
    });
  });

  it('a declined job awaiting approval fails without being submitted', async () => {
    const doc = await documentAfter(
      jobHistory(request, ask, { type: 'FailGeneration', reason: 'declined', message: 'declined by u1', at: at(2) }),
    );
    expect(doc).toMatchObject({
      phase: 'failed',
      failure: { reason: 'declined' },
      upstreamJobId: null,
      chargedMinor: null,
    });
  });

  it('a duplicate of a stream revision is skipped: the document equals the one without it', async () => {
    const history = jobHistory(request, ...submit, progress(30, 'processing', 4));
    const stored = storedEvents({
      streamId: streams.generation(jobId),
      workspaceId: genIds.workspace,
      events: history,
    });
    const once = await project(definition, stored);
    const twice = await project(definition, [...stored, ...stored]);
    expect(twice.get(jobId)).toEqual(once.get(jobId));
  });
});
