import { randomUUID } from 'node:crypto';
import * as path from 'node:path';
import { handleCommand } from '@lomo/command-handling';
import { makeCallId, streams, type Actor } from '@lomo/contracts';
import { SqliteEventStore } from '@lomo/eventstore';
import {
  accountDecider,
  accountEventTypes,
  generationJobDecider,
  generationJobEventTypes,
  generationJobId,
  ledgerEntryId,
  quoteIdFor,
  type AccountCommand,
  type GenerationJobCommand,
} from '@lomo/generation';
import { decideOnTask } from '@lomo/workspace/testing';
import { liveClient, subscribe } from '../live/support/live-client';
import {
  createToken,
  eventually,
  startStandaloneApi,
  type GraphqlResponse,
  type RunningApi,
} from './support/standalone-api';

// The generation slice of the API (read models generation_jobs, accounts, account_ledger, and the
// approveQuote command) over real HTTP and graphql-ws against `npm start`'s embedded backend. The
// job and account histories are written by this process into the app's event store, decided by
// the generation deciders, as the generation worker would write them.

const JOBS = `query($taskId: ID!) {
  generationJobs(taskId: $taskId) {
    id taskId phase progress chargedMinor refundedMinor artifactId
    quote { quoteId amountMinor currency units unit } failure { reason message }
  }
}`;
const ACCOUNT = `{ account {
  currencies { currency approvedBudgetMinor reservedMinor spentMinor refundedMinor availableMinor }
  daily { currency usedMinor limitMinor remainingMinor } perCallAutoApproveMinor pendingQuoteIds
} }`;
const LEDGER = `query($first: Int, $after: String) {
  accountLedger(first: $first, after: $after) {
    edges { cursor node { id kind jobId amountMinor currency } } pageInfo { hasNextPage endCursor }
  }
}`;
const APPROVE = `mutation($quoteId: ID!) { approveQuote(quoteId: $quoteId) { quoteId jobId changed consistencyToken } }`;
const PROGRESS = `subscription($taskId: ID!) { generationProgress(taskId: $taskId) { job { id phase progress } } }`;

interface Job {
  id: string;
  phase: string;
  progress: number;
  chargedMinor: number | null;
  refundedMinor: number | null;
  artifactId: string | null;
  quote: { quoteId: string; amountMinor: number };
  failure: { reason: string } | null;
}
interface Ledger {
  accountLedger: {
    edges: Array<{ cursor: string; node: { id: string; kind: string; jobId: string | null; amountMinor: number } }>;
    pageInfo: { hasNextPage: boolean; endCursor: string | null };
  };
}
interface Approved {
  approveQuote: { quoteId: string; jobId: string; changed: boolean; consistencyToken: string };
}

const codeOf = (r: GraphqlResponse<unknown>) => r.errors?.[0]?.extensions?.code;
const system: Actor = { kind: 'system', component: 'generation' };
const NOW = new Date().toISOString();
const LATER = new Date(Date.now() + 3_600_000).toISOString();
const RESULT = { hash: 'c'.repeat(64), bytes: 1024, contentType: 'image/png' };

describe('generation through the API: jobs, account, ledger, approveQuote, generationProgress', () => {
  let api: RunningApi;
  let store: SqliteEventStore;
  let other: { token: string };
  let workspaceId: string;
  let userId: string;
  const taskId = randomUUID();
  const turnId = randomUUID();
  const checkpointId = randomUUID();
  const call = (index: number) => makeCallId(turnId, 1, index);
  const jobs = { done: '', waiting: '', failed: '' };
  const artifactId = randomUUID();

  const gql = <T>(query: string, variables: Record<string, unknown> = {}, token = api.devToken) =>
    api.gql<T>(token, query, variables);

  const onAccount = (commands: AccountCommand[], actor: Actor = system) =>
    handleCommand(store, streams.account(workspaceId), accountDecider, () => commands, {
      eventTypes: accountEventTypes,
      metadata: { correlationId: 'seed', causationId: null, workspaceId, actor },
      ids: { uuid: () => randomUUID() },
    });
  const onJob = (jobId: string, commands: GenerationJobCommand[]) =>
    handleCommand(store, streams.generation(jobId), generationJobDecider, () => commands, {
      eventTypes: generationJobEventTypes,
      metadata: { correlationId: 'seed', causationId: null, workspaceId, actor: system },
      ids: { uuid: () => randomUUID() },
    });
  const count = async (streamId: string) => (await store.readStream(streamId)).length;

  /** A job of the task, with its request and the account's quote for it. */
  async function requestJob(index: number, amountMinor: number): Promise<string> {
    const callId = call(index);
    const jobId = generationJobId(workspaceId, callId);
    const quote = {
      quoteId: quoteIdFor(jobId),
      provider: 'simulated',
      units: 1,
      unit: 'image',
      unitPriceMinor: amountMinor,
      amountMinor,
      currency: 'USD',
    };
    await onAccount([{ type: 'IssueQuote', quote, jobId, taskId, callId, at: NOW }]);
    await onJob(jobId, [
      {
        type: 'RequestGeneration',
        workspaceId,
        taskId,
        turnId,
        callId,
        provider: 'simulated',
        kind: 'image',
        operation: 'image.generate',
        params: { prompt: `poster ${index}`, options: {} },
        quote,
        at: NOW,
      },
    ]);
    return jobId;
  }

  /** Reserved and charged by the auto-approve limits, submitted upstream. */
  async function submitJob(jobId: string): Promise<void> {
    await onAccount([
      { type: 'ReserveFunds', jobId, quoteId: quoteIdFor(jobId), at: NOW, expiresAt: LATER },
      { type: 'ChargeJob', jobId, at: NOW },
    ]);
    const charged = (await store.readStream(streams.account(workspaceId))).find(
      (e) => e.type === 'JobCharged' && (e.data as { jobId: string }).jobId === jobId,
    )!.data as { entryId: string; amountMinor: number };
    await onJob(jobId, [
      { type: 'StartSubmission', at: NOW },
      { type: 'RecordSubmission', upstreamJobId: `up-${jobId}`, at: NOW },
      { type: 'RecordCharge', entryId: charged.entryId, amountMinor: charged.amountMinor, currency: 'USD', at: NOW },
    ]);
  }

  beforeAll(async () => {
    // The test writes the jobs' events itself, as the generation service would: none runs here.
    api = await startStandaloneApi({ LOMO_GENERATION: 'off' });
    store = new SqliteEventStore({ filename: path.join(api.dataDir, 'events.sqlite') });
    other = await createToken(api, 'ws_other', 'mallory');
    const me = await gql<{ me: { workspaceId: string; userId: string } }>('{ me { workspaceId userId } }');
    ({ workspaceId, userId } = me.data!.me);
    const person: Actor = { kind: 'user', userId };

    // A task with an open turn: the approval checkpoint of job `waiting` belongs to it.
    await decideOnTask(store, workspaceId, taskId, [
      {
        type: 'CreateTask',
        taskId,
        kind: 'persistent',
        goal: 'Posters',
        language: 'en',
        originMessageId: randomUUID(),
      },
      { type: 'OpenTurn', turnId, reason: 'message' },
    ]);
    await onAccount(
      [
        {
          type: 'SetLimits',
          currency: 'USD',
          perCallAutoApproveMinor: 500,
          dailyAutoApproveMinor: 1_000,
          timeZone: 'UTC',
          setBy: userId,
          by: person,
          at: NOW,
        },
        {
          type: 'ApproveBudget',
          budgetId: randomUUID(),
          amountMinor: 10_000,
          currency: 'USD',
          approvedBy: userId,
          by: person,
          at: NOW,
        },
      ],
      person,
    );

    jobs.done = await requestJob(0, 300);
    await submitJob(jobs.done);
    await onJob(jobs.done, [
      { type: 'RecordProgress', progress: 50, status: 'processing', source: 'poll', at: NOW },
      { type: 'CompleteGeneration', result: RESULT, artifactId, at: NOW },
    ]);

    jobs.waiting = await requestJob(1, 2_000);
    await decideOnTask(store, workspaceId, taskId, [
      { type: 'OpenCheckpoint', checkpointId, turnId, kind: 'approval', callId: call(1), question: 'Pay $20.00?' },
    ]);
    await onJob(jobs.waiting, [
      {
        type: 'AskApproval',
        quoteId: quoteIdFor(jobs.waiting),
        checkpointId,
        refusal: 'PAYMENT_QUOTE_NOT_APPROVED',
        at: NOW,
      },
    ]);

    jobs.failed = await requestJob(2, 200);
    await submitJob(jobs.failed);
    await onAccount([{ type: 'RefundJob', jobId: jobs.failed, reason: 'upstream_failed', at: NOW }]);
    await onJob(jobs.failed, [
      { type: 'FailGeneration', reason: 'upstream_failed', message: 'content policy', at: NOW },
      {
        type: 'RecordRefund',
        entryId: ledgerEntryId(jobs.failed, 'refund'),
        amountMinor: 200,
        currency: 'USD',
        reason: 'upstream_failed',
        at: NOW,
      },
    ]);
  }, 120_000);

  afterAll(async () => {
    await store?.close();
    await api?.stop();
  });

  it('generationJobs(taskId) shows each job’s phase, progress, cost and artefact', async () => {
    const read = await eventually(
      () => gql<{ generationJobs: Job[] }>(JOBS, { taskId }),
      (r) =>
        (r.data?.generationJobs ?? []).length === 3 &&
        r.data!.generationJobs.some((j) => j.phase === 'failed' && j.refundedMinor !== null),
      'the three jobs projected',
    );
    const byId = new Map(read.data!.generationJobs.map((j) => [j.id, j]));
    expect(byId.get(jobs.done)).toMatchObject({
      phase: 'completed',
      progress: 100,
      chargedMinor: 300,
      refundedMinor: null,
      artifactId,
      failure: null,
      quote: { amountMinor: 300 },
    });
    expect(byId.get(jobs.waiting)).toMatchObject({
      phase: 'awaiting_approval',
      progress: 0,
      chargedMinor: null,
      artifactId: null,
      quote: { quoteId: quoteIdFor(jobs.waiting), amountMinor: 2_000 },
    });
    expect(byId.get(jobs.failed)).toMatchObject({
      phase: 'failed',
      chargedMinor: 200,
      refundedMinor: 200,
      failure: { reason: 'upstream_failed' },
    });
  });

  it('account shows budgets, reserved, spent, refunded and today’s auto-approve use', async () => {
    const read = await eventually(
      () => gql<{ account: { currencies: Array<{ refundedMinor: number }> } }>(ACCOUNT),
      (r) => r.data?.account.currencies[0]?.refundedMinor === 200,
      'the account projected',
    );
    expect(read.data?.account).toEqual({
      currencies: [
        {
          currency: 'USD',
          approvedBudgetMinor: 10_000,
          reservedMinor: 0,
          spentMinor: 300,
          refundedMinor: 200,
          availableMinor: 9_700,
        },
      ],
      daily: { currency: 'USD', usedMinor: 300, limitMinor: 1_000, remainingMinor: 700 },
      perCallAutoApproveMinor: 500,
      pendingQuoteIds: [quoteIdFor(jobs.waiting)],
    });
  });

  it('accountLedger pages through the entries in order, also from a cursor inside a page', async () => {
    await eventually(
      () => gql<Ledger>(LEDGER, { first: 50 }),
      (r) => r.data?.accountLedger.edges.length === 6,
      'six entries',
    );
    const page1 = (await gql<Ledger>(LEDGER, { first: 4 })).data!.accountLedger;
    const page2 = (await gql<Ledger>(LEDGER, { first: 4, after: page1.pageInfo.endCursor })).data!.accountLedger;
    const fromInside = (await gql<Ledger>(LEDGER, { first: 2, after: page1.edges[1].cursor })).data!.accountLedger;
    const kinds = (p: Ledger['accountLedger']) => p.edges.map((e) => `${e.node.kind}:${e.node.amountMinor}`);
    expect([kinds(page1), page1.pageInfo.hasNextPage, kinds(page2), page2.pageInfo.hasNextPage]).toEqual([
      ['budget_approved:10000', 'reservation:300', 'charge:300', 'reservation:200'],
      true,
      ['charge:200', 'refund:200'],
      false,
    ]);
    expect(kinds(fromInside)).toEqual(['charge:300', 'reservation:200']);
    expect((await gql<Ledger>(LEDGER, { first: 2, after: 'bogus' })).errors?.[0]?.extensions?.code).toBe(
      'VALIDATION_FAILED',
    );
  });

  it('another workspace sees none of it and cannot approve; bad and unknown quote ids are typed errors; nothing is appended', async () => {
    const quoteId = quoteIdFor(jobs.waiting);
    const before = [await count(streams.account(workspaceId)), await count(streams.task(taskId))];
    const theirJobs = await gql(JOBS, { taskId }, other.token);
    const theirAccount = await gql<{ account: { currencies: unknown[] } }>(ACCOUNT, {}, other.token);
    const theirLedger = await gql<Ledger>(LEDGER, { first: 10 }, other.token);
    const foreign = await gql(APPROVE, { quoteId }, other.token);
    const malformed = await gql(APPROVE, { quoteId: 'not-a-quote' });
    const unknown = await gql(APPROVE, { quoteId: randomUUID() });
    expect([codeOf(theirJobs), theirAccount.data?.account.currencies, theirLedger.data?.accountLedger.edges]).toEqual([
      'NOT_FOUND',
      [],
      [],
    ]);
    expect([foreign, malformed, unknown].map((r) => ({ code: codeOf(r), data: r.data ?? null }))).toEqual([
      { code: 'NOT_FOUND', data: null },
      { code: 'VALIDATION_FAILED', data: null },
      { code: 'NOT_FOUND', data: null },
    ]);
    expect([await count(streams.account(workspaceId)), await count(streams.task(taskId))]).toEqual(before);
  });

  it('approveQuote records QuoteApproved by the person once and resolves the job’s checkpoint; a repeat is a no-op', async () => {
    const quoteId = quoteIdFor(jobs.waiting);
    const first = await gql<Approved>(APPROVE, { quoteId });
    const afterFirst = [await count(streams.account(workspaceId)), await count(streams.task(taskId))];
    const second = await gql<Approved>(APPROVE, { quoteId });
    expect(first.data?.approveQuote).toMatchObject({ quoteId, jobId: jobs.waiting, changed: true });
    expect(second.data?.approveQuote).toMatchObject({ quoteId, jobId: jobs.waiting, changed: false });
    expect([await count(streams.account(workspaceId)), await count(streams.task(taskId))]).toEqual(afterFirst);

    const account = await store.readStream(streams.account(workspaceId));
    const approvals = account.filter((e) => e.type === 'QuoteApproved');
    expect(approvals.map((e) => ({ data: e.data, actor: e.metadata.actor }))).toEqual([
      {
        data: { quoteId, approvedBy: userId, checkpointId, approvedAt: expect.any(String) },
        actor: { kind: 'user', userId },
      },
    ]);
    const resolved = (await store.readStream(streams.task(taskId))).filter((e) => e.type === 'CheckpointResolved');
    expect(resolved.map((e) => e.data)).toEqual([
      { checkpointId, decision: 'approve', callId: call(1), resolvedBy: userId },
    ]);

    const read = await eventually(
      () => gql<{ account: { pendingQuoteIds: string[] } }>(ACCOUNT, {}),
      (r) => r.data?.account.pendingQuoteIds.length === 0,
      'the approval projected',
    );
    expect(read.data?.account.pendingQuoteIds).toEqual([]);
    const ledger = (await gql<Ledger>(LEDGER, { first: 50 })).data!.accountLedger.edges.map((e) => e.node);
    expect(ledger.filter((n) => n.kind === 'quote_approved')).toEqual([
      { id: quoteId, kind: 'quote_approved', jobId: jobs.waiting, amountMinor: 2_000, currency: 'USD' },
    ]);
  });

  it('generationProgress(taskId) sends the task’s jobs, then a job again as it changes; NOT_FOUND for another workspace', async () => {
    type Progress = { generationProgress: { job: { id: string; phase: string; progress: number } } };
    const client = liveClient(api, api.devToken);
    const theirs = liveClient(api, other.token);
    try {
      const live = subscribe<Progress>(client, PROGRESS, { taskId });
      await live.waitFor((p) => p.generationProgress.job.id === jobs.waiting, 'the current jobs');
      const seen = live.payloads.length;
      await onAccount([
        { type: 'ReserveFunds', jobId: jobs.waiting, quoteId: quoteIdFor(jobs.waiting), at: NOW, expiresAt: LATER },
      ]);
      await onJob(jobs.waiting, [
        { type: 'StartSubmission', at: NOW },
        { type: 'RecordSubmission', upstreamJobId: 'up-waiting', at: NOW },
        { type: 'RecordProgress', progress: 30, status: 'processing', source: 'poll', at: NOW },
      ]);
      await live.waitFor(
        (p) => p.generationProgress.job.id === jobs.waiting && p.generationProgress.job.progress === 30,
        'progress 30',
        seen,
      );
      expect(
        live.payloads
          .slice(0, 3)
          .map((p) => p.generationProgress.job.id)
          .sort(),
      ).toEqual(Object.values(jobs).sort());
      live.unsubscribe();

      const refused = subscribe<Progress>(theirs, PROGRESS, { taskId });
      await refused.ended('the refusal');
      const code = refused.end?.errors?.[0]?.extensions?.code ?? refused.nextErrors[0]?.[0]?.extensions?.code;
      expect({ code, payloads: refused.payloads }).toEqual({ code: 'NOT_FOUND', payloads: [] });
    } finally {
      await client.dispose();
      await theirs.dispose();
    }
  });
});
