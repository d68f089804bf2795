import { deciderSpec } from '@lomo/testing';
import { ledgerEntryId } from '../account/account-ids';
import { at, foldJob, jobHistory, jobOf, requestOf } from '../testing';
import type { GenerationJobCommand } from './job-commands';
import { generationJobDecider } from './job-decider';

const { given } = deciderSpec(generationJobDecider);

const submit: GenerationJobCommand = { type: 'RecordSubmission', upstreamJobId: 'up-1', at: at(1) };
const charge = (
  overrides: Partial<Extract<GenerationJobCommand, { type: 'RecordCharge' }>> = {},
): GenerationJobCommand => ({
  type: 'RecordCharge',
  entryId: ledgerEntryId(jobOf(), 'charge'),
  amountMinor: 400,
  currency: 'USD',
  at: at(2),
  ...overrides,
});
const refund = (
  overrides: Partial<Extract<GenerationJobCommand, { type: 'RecordRefund' }>> = {},
): GenerationJobCommand => ({
  type: 'RecordRefund',
  entryId: ledgerEntryId(jobOf(), 'refund'),
  amountMinor: 400,
  currency: 'USD',
  reason: 'upstream_failed',
  at: at(40),
  ...overrides,
});
const failUpstream: GenerationJobCommand = {
  type: 'FailGeneration',
  reason: 'upstream_failed',
  message: 'boom',
  at: at(30),
};

describe('generation job: its record of the account ledger (charged on submit, refunded on failure)', () => {
  it('records the charge of a submitted job under the ledger’s entry id', () => {
    given(jobHistory(requestOf(), submit))
      .when(charge())
      .then([
        {
          type: 'GenerationCharged',
          data: { entryId: ledgerEntryId(jobOf(), 'charge'), amountMinor: 400, currency: 'USD', chargedAt: at(2) },
        },
      ]);
  });

  it('a second charge does nothing []', () => {
    given(jobHistory(requestOf(), submit, charge()))
      .when(charge({ at: at(9) }))
      .then([]);
  });

  it('a job that never reached submit is never charged', () => {
    given(jobHistory(requestOf())).when(charge()).thenThrows('GENERATION_JOB_NOT_SUBMITTED');
    given(jobHistory(requestOf(), { type: 'FailGeneration', reason: 'submit_timeout', message: 'no id', at: at(9) }))
      .when(charge())
      .thenThrows('GENERATION_JOB_NOT_SUBMITTED');
  });

  it('a charge that is not this job’s ledger entry (other id, other amount) is refused', () => {
    given(jobHistory(requestOf(), submit))
      .when(charge({ entryId: ledgerEntryId(jobOf(), 'refund') }))
      .thenThrows('GENERATION_LEDGER_MISMATCH');
    given(jobHistory(requestOf(), submit))
      .when(charge({ amountMinor: 399 }))
      .thenThrows('GENERATION_LEDGER_MISMATCH');
  });

  it('a refund without a charge does nothing []', () => {
    given(jobHistory(requestOf(), submit, failUpstream))
      .when(refund())
      .then([]);
  });

  it('a refund returns the whole charge once; a second refund does nothing []', () => {
    const charged = jobHistory(requestOf(), submit, charge(), failUpstream);
    given(charged)
      .when(refund())
      .then([
        {
          type: 'GenerationRefunded',
          data: {
            entryId: ledgerEntryId(jobOf(), 'refund'),
            amountMinor: 400,
            currency: 'USD',
            reason: 'upstream_failed',
            refundedAt: at(40),
          },
        },
      ]);
    given(jobHistory(requestOf(), submit, charge(), failUpstream, refund()))
      .when(refund({ at: at(50) }))
      .then([]);
    given(charged)
      .when(refund({ amountMinor: 100 }))
      .thenThrows('GENERATION_LEDGER_MISMATCH');
  });

  it('a charge recorded after the job failed (the ledger charged it on submit) is still recorded', () => {
    const state = foldJob(jobHistory(requestOf(), submit, failUpstream, charge({ at: at(35) })));
    expect(state.status === 'failed' && state.charge?.at).toBe(at(35));
  });
});
