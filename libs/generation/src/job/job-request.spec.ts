import { deterministicUuid, streams } from '@lomo/contracts';
import { deciderSpec, expectEventTypesOfCategory } from '@lomo/testing';
import { at, callOf, genIds, jobHistory, jobOf, quoteOf, requestOf } from '../testing';
import { generationJobDecider } from './job-decider';
import { generationJobEventTypes } from './job-events';
import { generationJobId } from './job-ids';
import { quoteIdFor } from '../account/account-ids';

const { given } = deciderSpec(generationJobDecider);

describe('generation job: one request per (workspace, idempotency key)', () => {
  it('the job stream holds exactly the registry’s generation events', () => {
    expectEventTypesOfCategory('generation', generationJobEventTypes);
  });

  it('the job id derives from (workspace, idempotency key): same call, same job; another workspace or call, another job', () => {
    const key = callOf(1, 0);
    expect(generationJobId('ws1', key)).toBe(generationJobId('ws1', key));
    expect(generationJobId('ws1', key)).toBe(deterministicUuid('lomo.generation.job', 'ws1', key));
    expect(generationJobId('ws2', key)).not.toBe(generationJobId('ws1', key));
    expect(generationJobId('ws1', callOf(1, 1))).not.toBe(generationJobId('ws1', key));
    expect(streams.generation(jobOf(key))).toBe(`generation-${jobOf(key)}`);
  });

  it('a request records the order and its quote; its job id is the derived one', () => {
    const request = requestOf();
    given([])
      .when(request)
      .then([
        {
          type: 'GenerationRequested',
          data: {
            jobId: jobOf(),
            workspaceId: genIds.workspace,
            taskId: genIds.task,
            turnId: genIds.turn,
            callId: callOf(),
            provider: 'simulated',
            kind: 'image',
            operation: 'image.generate',
            params: request.params,
            quote: quoteOf(jobOf()),
            requestedAt: at(),
          },
        },
      ]);
  });

  it('a repeat request is a no-op [] (the "no stream" append is the uniqueness constraint), even with other params', () => {
    given(jobHistory(requestOf())).when(requestOf()).then([]);
    given(jobHistory(requestOf()))
      .when(requestOf({ prompt: 'Another prompt', amountMinor: 900, at: at(60) }))
      .then([]);
  });

  it('a request for another call on an existing job stream is refused as a conflict', () => {
    given(jobHistory(requestOf()))
      .when(requestOf({ callId: callOf(2, 0) }))
      .thenThrows('GENERATION_JOB_CONFLICT');
  });

  it('the idempotency key is the call id {turnId}:{step}:{index} of its turn, without the execution generation', () => {
    given([])
      .when({ ...requestOf(), callId: `${callOf(1, 0)}:2` })
      .thenThrows('GENERATION_INVALID_COMMAND');
    given([])
      .when({ ...requestOf(), turnId: genIds.task })
      .thenThrows('GENERATION_INVALID_COMMAND');
  });

  it('a request whose quote is from another provider or not in whole minor units is refused', () => {
    const request = requestOf();
    given([])
      .when({ ...request, quote: { ...request.quote, provider: 'openai' } })
      .thenThrows('GENERATION_INVALID_COMMAND');
    given([])
      .when({ ...request, quote: { ...request.quote, amountMinor: 1.5 } })
      .thenThrows('GENERATION_INVALID_COMMAND');
  });
});

describe('generation job: asking a person to approve the quote', () => {
  const ask = (at_ = at(5)) => ({
    type: 'AskApproval' as const,
    quoteId: quoteIdFor(jobOf()),
    checkpointId: '7a2d3b5f-9e4c-4d6b-8f8a-1b2c3d4e5f60',
    refusal: 'PAYMENT_QUOTE_NOT_APPROVED',
    at: at_,
  });

  it('a requested job records the ask once; a repeat is a no-op []', () => {
    const request = requestOf();
    given(jobHistory(request))
      .when(ask())
      .then([
        {
          type: 'GenerationApprovalRequested',
          data: {
            quoteId: ask().quoteId,
            checkpointId: ask().checkpointId,
            refusal: 'PAYMENT_QUOTE_NOT_APPROVED',
            askedAt: at(5),
          },
        },
      ]);
    given([
      ...jobHistory(request),
      {
        type: 'GenerationApprovalRequested',
        data: {
          quoteId: ask().quoteId,
          checkpointId: ask().checkpointId,
          refusal: 'PAYMENT_QUOTE_NOT_APPROVED',
          askedAt: at(5),
        },
      },
    ])
      .when(ask(at(9)))
      .then([]);
  });

  it('a job already submitted is past approval: a late ask is a no-op []', () => {
    given([
      ...jobHistory(requestOf()),
      { type: 'GenerationSubmitted', data: { upstreamJobId: 'sim-1', submittedAt: at(1) } },
    ])
      .when(ask())
      .then([]);
  });

  it('an ask for a job that does not exist is refused', () => {
    given([]).when(ask()).thenThrows('GENERATION_JOB_NOT_FOUND');
  });
});

describe('generation job: the intent to send is recorded once, before sending', () => {
  it('a requested job records the start; a repeat decides nothing (the writer that decided nothing must not send)', () => {
    given(jobHistory(requestOf()))
      .when({ type: 'StartSubmission', at: at(3) })
      .then([{ type: 'GenerationSubmissionStarted', data: { startedAt: at(3) } }]);
    given([...jobHistory(requestOf()), { type: 'GenerationSubmissionStarted', data: { startedAt: at(3) } }])
      .when({ type: 'StartSubmission', at: at(4) })
      .then([]);
  });

  it('a job already submitted or failed never starts sending again', () => {
    given([
      ...jobHistory(requestOf()),
      { type: 'GenerationSubmitted', data: { upstreamJobId: 'sim-1', submittedAt: at(1) } },
    ])
      .when({ type: 'StartSubmission', at: at(4) })
      .then([]);
    given([
      ...jobHistory(requestOf()),
      { type: 'GenerationFailed', data: { reason: 'rejected', message: '400', failedAt: at(1) } },
    ])
      .when({ type: 'StartSubmission', at: at(4) })
      .then([]);
  });
});
