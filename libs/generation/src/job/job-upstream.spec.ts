import { deciderSpec } from '@lomo/testing';
import {
  accountHistory,
  at,
  budgetOf,
  foldAccount,
  foldJob,
  issueQuoteOf,
  jobHistory,
  jobOf,
  limitsOf,
  requestOf,
} from '../testing';
import { settleJob } from '../account/settle-job';
import { ledgerEntryId } from '../account/account-ids';
import type { GenerationJobCommand } from './job-commands';
import { generationJobDecider } from './job-decider';
import type { GenerationJobEvent } from './job-events';

const { given } = deciderSpec(generationJobDecider);

const submit = (upstreamJobId = 'up-1', seconds = 1): GenerationJobCommand => ({
  type: 'RecordSubmission',
  upstreamJobId,
  at: at(seconds),
});
const progress = (
  value: number,
  seconds: number,
  options: { status?: 'queued' | 'processing'; eventId?: string } = {},
): GenerationJobCommand => ({
  type: 'RecordProgress',
  progress: value,
  status: options.status ?? 'processing',
  source: options.eventId === undefined ? 'poll' : 'callback',
  ...(options.eventId !== undefined ? { callbackEventId: options.eventId } : {}),
  at: at(seconds),
});
const result = { hash: 'b'.repeat(64), bytes: 2048, contentType: 'image/png' };
const complete = (seconds = 30): GenerationJobCommand => ({
  type: 'CompleteGeneration',
  result,
  artifactId: '8b9c6f3e-8a51-4d7e-9a35-2f7c1d4e5a68',
  at: at(seconds),
});
const fail = (
  reason: Extract<GenerationJobCommand, { type: 'FailGeneration' }>['reason'],
  seconds = 30,
): GenerationJobCommand => ({
  type: 'FailGeneration',
  reason,
  message: `failed: ${reason}`,
  at: at(seconds),
});
const failed = (
  reason: Extract<GenerationJobEvent, { type: 'GenerationFailed' }>['data']['reason'],
  seconds = 30,
): GenerationJobEvent => ({
  type: 'GenerationFailed',
  data: { reason, message: `failed: ${reason}`, failedAt: at(seconds) },
});

const requested = () => jobHistory(requestOf());
const submitted = () => jobHistory(requestOf(), submit());

describe('generation job: upstream reports never move a job backwards', () => {
  it('the upstream id is recorded once: the same id again is a no-op, another id is refused', () => {
    given(requested())
      .when(submit('up-1', 2))
      .then([{ type: 'GenerationSubmitted', data: { upstreamJobId: 'up-1', submittedAt: at(2) } }]);
    given(submitted()).when(submit('up-1', 5)).then([]);
    given(submitted()).when(submit('up-2', 5)).thenThrows('GENERATION_UPSTREAM_ID_CONFLICT');
  });

  it('reports about a job that does not exist are refused', () => {
    given([]).when(submit()).thenThrows('GENERATION_JOB_NOT_FOUND');
    given([]).when(progress(10, 1)).thenThrows('GENERATION_JOB_NOT_FOUND');
    given([]).when(complete()).thenThrows('GENERATION_JOB_NOT_FOUND');
  });

  it('progress rises: a forward report is recorded with its source and callback event id', () => {
    given(submitted())
      .when(progress(40, 3, { eventId: 'evt-1' }))
      .then([
        {
          type: 'GenerationProgressed',
          data: { progress: 40, status: 'processing', source: 'callback', callbackEventId: 'evt-1', observedAt: at(3) },
        },
      ]);
  });

  it('progress never decreases: out-of-order progress is ignored []', () => {
    const at60 = jobHistory(requestOf(), submit(), progress(60, 5));
    given(at60).when(progress(40, 6)).then([]);
    given(at60).when(progress(60, 7)).then([]);
    // queued after processing at the same percentage is backwards too.
    given(at60)
      .when(progress(60, 7, { status: 'queued' }))
      .then([]);
    given(jobHistory(requestOf(), submit(), progress(0, 2, { status: 'queued' })))
      .when(progress(0, 3))
      .then([
        {
          type: 'GenerationProgressed',
          data: { progress: 0, status: 'processing', source: 'poll', observedAt: at(3) },
        },
      ]);
  });

  it('duplicates are no-ops: a redelivered callback, a second completion, a second failure', () => {
    given(jobHistory(requestOf(), submit(), progress(40, 3, { eventId: 'evt-1' })))
      .when(progress(50, 4, { eventId: 'evt-1' }))
      .then([]);
    given(jobHistory(requestOf(), submit(), complete()))
      .when(complete(40))
      .then([]);
    given(jobHistory(requestOf(), submit(), fail('upstream_failed')))
      .when(fail('upstream_failed', 40))
      .then([]);
  });

  it('a job never moves backwards: a late "processing" or progress after completed or failed is ignored []', () => {
    const done = jobHistory(requestOf(), submit(), progress(50, 3), complete());
    given(done).when(progress(70, 40)).then([]);
    given(done).when(fail('upstream_failed', 40)).then([]);
    given(done).when(submit('up-1', 40)).then([]);
    const lost = jobHistory(requestOf(), submit(), fail('outcome_unknown'));
    given(lost).when(progress(70, 40)).then([]);
    given(lost).when(complete(40)).then([]);
    expect(foldJob(done).status).toBe('completed');
  });

  it('completion needs a recorded upstream id', () => {
    given(requested()).when(complete()).thenThrows('GENERATION_JOB_NOT_SUBMITTED');
  });

  it('progress before the upstream id is recorded cannot be about this job and is ignored []', () => {
    given(requested()).when(progress(10, 1)).then([]);
  });

  it('a timeout with unknown outcome fails the job (outcome_unknown) and its charge is refunded', () => {
    const request = requestOf();
    const job = jobHistory(request, submit());
    given(job)
      .when(fail('outcome_unknown'))
      .then([failed('outcome_unknown')]);
    // + refund: the settlement of a failed, charged job is a refund of the whole charge.
    const account = foldAccount(
      accountHistory(
        budgetOf(1000),
        limitsOf(500, 2000),
        issueQuoteOf(request),
        {
          type: 'ReserveFunds',
          jobId: jobOf(),
          quoteId: request.quote.quoteId,
          at: at(),
          expiresAt: at(600),
        },
        { type: 'ChargeJob', jobId: jobOf(), at: at(1) },
      ),
    );
    const afterFail = foldJob([...job, failed('outcome_unknown')]);
    expect(settleJob(afterFail, account, at(31))).toEqual([
      {
        stream: 'job',
        command: {
          type: 'RecordCharge',
          entryId: ledgerEntryId(jobOf(), 'charge'),
          amountMinor: 400,
          currency: 'USD',
          at: at(31),
        },
      },
      { stream: 'account', command: { type: 'RefundJob', jobId: jobOf(), reason: 'outcome_unknown', at: at(31) } },
    ]);
  });

  it('a job with no upstream id after a submit timeout fails as submit_timeout and its reservation goes back', () => {
    const request = requestOf();
    given(requested())
      .when(fail('submit_timeout', 700))
      .then([failed('submit_timeout', 700)]);
    const account = foldAccount(
      accountHistory(budgetOf(1000), limitsOf(500, 2000), issueQuoteOf(request), {
        type: 'ReserveFunds',
        jobId: jobOf(),
        quoteId: request.quote.quoteId,
        at: at(),
        expiresAt: at(600),
      }),
    );
    const afterFail = foldJob([...requested(), failed('submit_timeout', 700)]);
    expect(settleJob(afterFail, account, at(701))).toEqual([
      { stream: 'account', command: { type: 'ReleaseReservation', jobId: jobOf(), reason: 'expired', at: at(701) } },
    ]);
  });

  it('a submit timeout that fires after the upstream id was recorded fails nothing []; nor does a late rejection', () => {
    given(submitted()).when(fail('submit_timeout')).then([]);
    given(submitted()).when(fail('rejected')).then([]);
  });

  it('a submit answered after the job failed on its submit timeout is ignored []: the job stays failed', () => {
    given(jobHistory(requestOf(), fail('submit_timeout')))
      .when(submit('up-late', 40))
      .then([]);
  });

  it('cancelling a submitted job fails it as cancelled', () => {
    given(submitted())
      .when(fail('cancelled'))
      .then([failed('cancelled')]);
  });

  it('refuses progress that is not a whole percentage', () => {
    given(submitted()).when(progress(101, 3)).thenThrows('GENERATION_INVALID_COMMAND');
    given(submitted()).when(progress(2.5, 3)).thenThrows('GENERATION_INVALID_COMMAND');
  });
});
