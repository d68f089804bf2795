import { randomUUID } from 'node:crypto';
import { handleCommand } from '@lomo/command-handling';
import { streams, type Actor, type WakeUpMessage } from '@lomo/contracts';
import { TaskErrors, taskDecider, taskEventTypes, type TaskCommand } from '@lomo/domain';
import type { EventStore } from '@lomo/eventstore';
import { createSqliteHarness, type EventStoreHarness } from '@lomo/eventstore/testing';
import { accountDecider } from '../account/account-decider';
import { AccountErrors } from '../account/account-errors';
import { accountEventTypes, type AccountEvent } from '../account/account-events';
import { generationJobDecider } from '../job/job-decider';
import { generationJobEventTypes } from '../job/job-events';
import { callOf, genIds, issueQuoteOf, jobOf, requestOf, T0 } from '../testing/generation.fixtures';
import { approveQuote } from './approve-quote';

// approveQuote on a real (SQLite) event store: the account and task streams as the deciders
// leave them, and what the command appends to each.

const ws = genIds.workspace;
const system: Actor = { kind: 'system', component: 'generation' };
const request = requestOf({ callId: callOf(1, 0), amountMinor: 2_000 });
const jobId = jobOf(request.callId);
const quoteId = request.quote.quoteId;
const { task: taskId, turn: turnId, checkpoint: checkpointId } = genIds;

const append = <C, E extends { type: string; data: unknown }, S>(
  store: EventStore,
  streamId: string,
  decider: { initialState: () => S; decide: (c: C, s: S) => E[]; evolve: (s: S, e: E) => S },
  eventTypes: readonly E['type'][],
  commands: C[],
  actor: Actor = system,
) =>
  handleCommand(store, streamId, decider, () => commands, {
    eventTypes,
    metadata: { correlationId: 'test', causationId: null, workspaceId: ws, actor },
    ids: { uuid: () => randomUUID() },
  });

const onTask = (store: EventStore, commands: TaskCommand[]) =>
  append(store, streams.task(taskId), taskDecider, taskEventTypes, commands, { kind: 'user', userId: 'u1' });

/** A task at an approval checkpoint for the job's call, the job waiting on its quote. */
async function seed(store: EventStore, options: { approvalAsked?: boolean } = {}) {
  await onTask(store, [
    { type: 'CreateTask', taskId, kind: 'persistent', goal: 'Posters', language: 'en', originMessageId: randomUUID() },
    { type: 'OpenTurn', turnId, reason: 'message' },
    { type: 'OpenCheckpoint', checkpointId, turnId, kind: 'approval', callId: request.callId, question: 'Pay $20?' },
  ]);
  await append(store, streams.account(ws), accountDecider, accountEventTypes, [issueQuoteOf(request)]);
  await append(store, streams.generation(jobId), generationJobDecider, generationJobEventTypes, [
    request,
    ...(options.approvalAsked === false
      ? []
      : [{ type: 'AskApproval' as const, quoteId, checkpointId, refusal: 'PAYMENT_QUOTE_NOT_APPROVED', at: T0 }]),
  ]);
}

describe('approveQuote', () => {
  let harness: EventStoreHarness;
  let store: EventStore;
  let woken: WakeUpMessage[];
  const deps = () => ({
    store,
    ids: { uuid: () => randomUUID() },
    clock: { now: () => new Date(T0) },
    wake: async (m: WakeUpMessage) => {
      woken.push(m);
    },
  });
  const types = async (streamId: string) => (await store.readStream(streamId)).map((e) => e.type);

  beforeEach(async () => {
    harness = await createSqliteHarness();
    store = harness.store;
    woken = [];
  });
  afterEach(() => harness.dispose());

  it('records the person’s approval with the job’s checkpoint, resolves the checkpoint and wakes the task; a repeat changes nothing', async () => {
    await seed(store);
    const first = await approveQuote(deps(), { workspaceId: ws, quoteId, userId: 'u1' });
    const heads = [await types(streams.account(ws)), await types(streams.task(taskId))];
    const second = await approveQuote(deps(), { workspaceId: ws, quoteId, userId: 'u1' });

    expect([first.changed, second.changed, first.jobId]).toEqual([true, false, jobId]);
    expect([await types(streams.account(ws)), await types(streams.task(taskId))]).toEqual(heads);
    const account = await store.readStream(streams.account(ws));
    expect(account.map((e) => [e.type, e.data, e.metadata.actor]).slice(1)).toEqual([
      ['QuoteApproved', { quoteId, approvedBy: 'u1', checkpointId, approvedAt: T0 }, { kind: 'user', userId: 'u1' }],
    ]);
    const resolved = (await store.readStream(streams.task(taskId))).filter((e) => e.type === 'CheckpointResolved');
    expect(resolved.map((e) => [e.data, e.metadata.actor])).toEqual([
      [
        { checkpointId, decision: 'approve', callId: request.callId, resolvedBy: 'u1' },
        { kind: 'user', userId: 'u1' },
      ],
    ]);
    expect(woken).toEqual([{ kind: 'wake', workspaceId: ws, taskId, turnId, reason: 'approval' }]);
    // The token of the repeat still names where the outcome sits.
    expect(second.writes.map((w) => w.streamId)).toEqual([streams.account(ws), streams.task(taskId)]);
  });

  it('an unknown quote, or a quote asked for from another workspace, is QUOTE_NOT_FOUND and appends nothing', async () => {
    await seed(store);
    const head = await store.headPosition();
    const unknown = approveQuote(deps(), { workspaceId: ws, quoteId: randomUUID(), userId: 'u1' });
    const foreign = approveQuote(deps(), { workspaceId: genIds.otherWorkspace, quoteId, userId: 'u1' });
    await expect(unknown).rejects.toMatchObject({ code: AccountErrors.QUOTE_NOT_FOUND });
    await expect(foreign).rejects.toMatchObject({ code: AccountErrors.QUOTE_NOT_FOUND });
    expect(await store.headPosition()).toBe(head);
  });

  it('a stopped task refuses, and the quote stays unapproved: nothing is appended anywhere', async () => {
    await seed(store);
    await onTask(store, [{ type: 'StopTask', by: { kind: 'user', userId: 'u1' }, cancelledTurnId: turnId }]);
    const head = await store.headPosition();
    await expect(approveQuote(deps(), { workspaceId: ws, quoteId, userId: 'u1' })).rejects.toMatchObject({
      code: TaskErrors.TASK_STOPPED,
    });
    expect(await store.headPosition()).toBe(head);
    expect(woken).toEqual([]);
  });

  it('a checkpoint another person already decided is left as it is; the approval is still recorded', async () => {
    await seed(store);
    await onTask(store, [
      { type: 'ResolveCheckpoint', checkpointId, decision: 'approve', callId: request.callId, resolvedBy: 'u2' },
    ]);
    const result = await approveQuote(deps(), { workspaceId: ws, quoteId, userId: 'u1' });
    const resolved = (await store.readStream(streams.task(taskId))).filter((e) => e.type === 'CheckpointResolved');
    expect(result.changed).toBe(true);
    expect(resolved.map((e) => (e.data as { resolvedBy: string }).resolvedBy)).toEqual(['u2']);
    expect((await types(streams.account(ws))).at(-1)).toBe('QuoteApproved');
    expect(woken).toEqual([]);
  });

  it('a job that never asked for approval gets the approval without a checkpoint', async () => {
    await seed(store, { approvalAsked: false });
    await approveQuote(deps(), { workspaceId: ws, quoteId, userId: 'u1' });
    const approved = (await store.readStream(streams.account(ws))).at(-1) as unknown as AccountEvent;
    expect(approved).toMatchObject({ type: 'QuoteApproved', data: { quoteId, approvedBy: 'u1' } });
    expect(approved.data).not.toHaveProperty('checkpointId');
    expect(await types(streams.task(taskId))).not.toContain('CheckpointResolved');
  });
});
