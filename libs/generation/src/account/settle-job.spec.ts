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
import type { GenerationJobCommand } from '../job/job-commands';
import type { AccountCommand } from './account-commands';
import { ledgerEntryId } from './account-ids';
import { settleJob } from './settle-job';

const request = requestOf();
const reserve: AccountCommand = {
  type: 'ReserveFunds',
  jobId: jobOf(),
  quoteId: request.quote.quoteId,
  at: at(),
  expiresAt: at(600),
};
const charge: AccountCommand = { type: 'ChargeJob', jobId: jobOf(), at: at(2) };
const refund: AccountCommand = { type: 'RefundJob', jobId: jobOf(), reason: 'upstream_failed', at: at(40) };
const account = (...more: AccountCommand[]) =>
  foldAccount(accountHistory(budgetOf(1000), limitsOf(500, 800), issueQuoteOf(request), ...more));
const submit: GenerationJobCommand = { type: 'RecordSubmission', upstreamJobId: 'up-1', at: at(1) };
const failUpstream: GenerationJobCommand = {
  type: 'FailGeneration',
  reason: 'upstream_failed',
  message: 'x',
  at: at(30),
};
const recordCharge: GenerationJobCommand = {
  type: 'RecordCharge',
  entryId: ledgerEntryId(jobOf(), 'charge'),
  amountMinor: 400,
  currency: 'USD',
  at: at(50),
};

describe('settleJob: what is left to write so a job’s money matches its state', () => {
  it('nothing before money is held, nor while the job waits for its submit', () => {
    expect(settleJob(foldJob(jobHistory(request)), account(), at(50))).toEqual([]);
    expect(settleJob(foldJob(jobHistory(request)), account(reserve), at(50))).toEqual([]);
  });

  it('charged on submit: a submitted job with money held is charged, and the job records the charge', () => {
    const job = foldJob(jobHistory(request, submit));
    expect(settleJob(job, account(reserve), at(50))).toEqual([
      { stream: 'account', command: { type: 'ChargeJob', jobId: jobOf(), at: at(50) } },
    ]);
    expect(settleJob(job, account(reserve, charge), at(50))).toEqual([{ stream: 'job', command: recordCharge }]);
    expect(settleJob(foldJob(jobHistory(request, submit, recordCharge)), account(reserve, charge), at(50))).toEqual([]);
  });

  it('a job that failed before it was charged gets its reservation back', () => {
    const job = foldJob(jobHistory(request, submit, failUpstream));
    expect(settleJob(job, account(reserve), at(50))).toEqual([
      { stream: 'account', command: { type: 'ReleaseReservation', jobId: jobOf(), reason: 'job_failed', at: at(50) } },
    ]);
  });

  it('a refunded job records the refund (and the charge, if a crash lost that record)', () => {
    const job = foldJob(jobHistory(request, submit, failUpstream));
    expect(settleJob(job, account(reserve, charge, refund), at(50))).toEqual([
      { stream: 'job', command: recordCharge },
      {
        stream: 'job',
        command: {
          type: 'RecordRefund',
          entryId: ledgerEntryId(jobOf(), 'refund'),
          amountMinor: 400,
          currency: 'USD',
          reason: 'upstream_failed',
          at: at(50),
        },
      },
    ]);
  });

  it('a completed, charged and recorded job has nothing left', () => {
    const complete: GenerationJobCommand = {
      type: 'CompleteGeneration',
      result: { hash: 'a'.repeat(64), bytes: 1, contentType: 'image/png' },
      artifactId: jobOf(),
      at: at(30),
    };
    expect(
      settleJob(foldJob(jobHistory(request, submit, recordCharge, complete)), account(reserve, charge), at(60)),
    ).toEqual([]);
  });
});

describe('settleJob: a request that may have reached the upstream is charged, then refunded', () => {
  const started: GenerationJobCommand = { type: 'StartSubmission', at: at(1) };
  const failAs = (reason: 'outcome_unknown' | 'submit_timeout' | 'rejected'): GenerationJobCommand => ({
    type: 'FailGeneration',
    reason,
    message: 'x',
    at: at(700),
  });

  it.each(['outcome_unknown', 'submit_timeout'] as const)(
    'started sending, then %s: charge first, the refund on the next run',
    (reason) => {
      const job = foldJob(jobHistory(request, started, failAs(reason)));
      expect(settleJob(job, account(reserve), at(701))).toEqual([
        { stream: 'account', command: { type: 'ChargeJob', jobId: jobOf(), at: at(701) } },
      ]);
      const charged = { ...charge, at: at(701) };
      expect(settleJob(job, account(reserve, charged), at(702))).toEqual([
        {
          stream: 'job',
          command: { ...recordCharge, at: at(702) },
        },
        { stream: 'account', command: { type: 'RefundJob', jobId: jobOf(), reason, at: at(702) } },
      ]);
    },
  );

  it('a 400 after the start proves nothing was made: the reservation is released, nothing is charged', () => {
    const job = foldJob(jobHistory(request, started, failAs('rejected')));
    expect(settleJob(job, account(reserve), at(701))).toEqual([
      {
        stream: 'account',
        command: { type: 'ReleaseReservation', jobId: jobOf(), reason: 'job_failed', at: at(701) },
      },
    ]);
  });

  it('never started sending, then the submit timeout: the reservation expires and is released', () => {
    const job = foldJob(jobHistory(request, failAs('submit_timeout')));
    expect(settleJob(job, account(reserve), at(701))).toEqual([
      { stream: 'account', command: { type: 'ReleaseReservation', jobId: jobOf(), reason: 'expired', at: at(701) } },
    ]);
  });
});
