import { existsSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import * as path from 'node:path';
import { waitFor } from '@lomo/bus/testing';
import { streams, type EventEnvelope } from '@lomo/contracts';
import { SqliteEventStore } from '@lomo/eventstore';
import { generationJobId, quoteIdFor } from '@lomo/generation';
import { SEND_MESSAGE } from './support/queries';
import { eventually, startStandaloneApi, type RunningApi } from './support/standalone-api';

// Issue 16's crash drill for approvals, on real processes and the public API: the person approves
// a paid call's card with resolveCheckpoint (only CheckpointResolved is appended: the decision is
// persisted before anything consumes it); the process SIGKILLs itself at the generation service's
// fault point just before it applies that approval (./support/standalone-killed-before-paid-call.ts);
// a plain `npm start` process restarted on the same data directory runs the call exactly once,
// from the persisted decision alone, and never asks the person again.

const KILLING_ENTRY = 'test/integration/api/support/standalone-killed-before-paid-call.ts';
/** The file that entry writes into the data directory just before it kills itself. */
const KILLED_MARKER = 'killed-before-paid-call';
// A subject of its own, so routing makes a one-shot image task that calls image.generate at once.
const REQUEST = 'Make a poster of a paper kite over the harbour';

const TASK = `query($id: ID!) { task(id: $id) {
  status kind
  pendingCheckpoints { checkpointId kind callId }
  turns(first: 10) { edges { node { id status } } } } }`;
const RESOLVE = `mutation($taskId: ID!, $checkpointId: ID!) {
  resolveCheckpoint(taskId: $taskId, checkpointId: $checkpointId, decision: APPROVE) { changed } }`;
const JOBS = `query($taskId: ID!) { generationJobs(taskId: $taskId) { id callId phase chargedMinor artifactId } }`;

interface Card {
  checkpointId: string;
  kind: string;
  callId: string | null;
}
interface TaskRead {
  task: {
    status: string;
    kind: string;
    pendingCheckpoints: Card[];
    turns: { edges: Array<{ node: { id: string; status: string } }> };
  } | null;
}
interface JobRead {
  generationJobs: Array<{
    id: string;
    callId: string;
    phase: string;
    chargedMinor: number | null;
    artifactId: string | null;
  }>;
}
interface UpstreamState {
  jobs: Array<{ id: string; idempotencyKey: string; status: string }>;
  counters: { submitRequests: number; idempotentReplays: number };
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** The processes' common settings; each start gets its own port (the callback URL follows it). */
async function envWithPort(): Promise<Record<string, string>> {
  return {
    PORT: String(await freePort()),
    LOMO_GENERATION_CALLBACK_SECRET: 'approve-then-sigkill-secret',
    // The sweep of unfinished jobs (and compensation polling) every 2 s, so nothing waits long.
    LOMO_GENERATION_SILENCE_MS: '2000',
    // The test polls the read models; the per-token limit is not what it checks.
    LOMO_API_RATE_LIMIT_BURST: '10000',
    LOMO_API_RATE_LIMIT_PER_SECOND: '10000',
  };
}

/** What the event store file holds, read by this (other) process, as standalone-api.ts's headPosition does. */
async function readStore<T>(dataDir: string, read: (store: SqliteEventStore) => Promise<T>): Promise<T> {
  const store = new SqliteEventStore({ filename: path.join(dataDir, 'events.sqlite') });
  try {
    return await read(store);
  } finally {
    await store.close();
  }
}

/** The simulated upstream's own record (its state file: jobs and counters, written before it answers). */
function upstreamState(dataDir: string): UpstreamState {
  const file = path.join(dataDir, 'sim-upstream', 'state.json');
  if (!existsSync(file)) return { jobs: [], counters: { submitRequests: 0, idempotentReplays: 0 } };
  return JSON.parse(readFileSync(file, 'utf8')) as UpstreamState;
}

/** The task's and its turns' events, one line each, for a failure's message. */
async function timeline(dataDir: string, taskId: string): Promise<string> {
  return readStore(dataDir, async (store) => {
    const task = await store.readStream(streams.task(taskId));
    const turnIds = [...new Set(task.map((e) => (e.data as { turnId?: string }).turnId).filter(Boolean))] as string[];
    const turns = await Promise.all(turnIds.map((id) => store.readStream(streams.turn(id))));
    return [...task, ...turns.flat()]
      .sort((a, b) => a.metadata.occurredAt.localeCompare(b.metadata.occurredAt))
      .map((e) => `${e.metadata.occurredAt} ${e.metadata.streamId} ${e.type} ${JSON.stringify(e.data).slice(0, 200)}`)
      .join('\n');
  });
}

const ofType = (events: EventEnvelope[], type: string) => events.filter((e) => e.type === type);

describe('approve a paid call’s card, SIGKILL the process before the call runs, restart', () => {
  let first: RunningApi | undefined;
  let second: RunningApi | undefined;
  let dataDir: string | undefined;

  afterAll(async () => {
    await first?.kill();
    await second?.stop();
    if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true });
  });

  it('the call runs exactly once after the restart and the person is never asked again', async () => {
    // ---- the first process: the card, the approval, the kill ----------------------------------
    first = await startStandaloneApi(await envWithPort(), { entry: KILLING_ENTRY, keepDataDir: true });
    dataDir = first.dataDir;
    const api = first;
    const token = api.devToken;

    const sent = await api.gql<{ sendMessage: { messageId: string } }>(token, SEND_MESSAGE, { text: REQUEST });
    expect(sent.errors).toBeUndefined();
    const routed = await eventually(
      () =>
        api.gql<{ message: { routing: { taskId: string | null } | null } | null }>(
          token,
          'query($id: ID!) { message(id: $id) { routing { taskId } } }',
          { id: sent.data!.sendMessage.messageId },
        ),
      (r) => r.data?.message?.routing?.taskId != null,
      'routing',
    );
    const taskId = routed.data!.message!.routing!.taskId!;
    const atCard = await eventually(
      () => api.gql<TaskRead>(token, TASK, { id: taskId }),
      (r) => r.data?.task?.pendingCheckpoints.some((c) => c.kind === 'APPROVAL') === true,
      'the paid call’s approval card',
      30_000,
    );
    const card = atCard.data!.task!.pendingCheckpoints.find((c) => c.kind === 'APPROVAL')!;
    expect(card.callId).toEqual(expect.any(String));
    const callId = card.callId!;
    const { workspaceId } = (await api.gql<{ me: { workspaceId: string } }>(token, '{ me { workspaceId } }')).data!.me;
    const jobId = generationJobId(workspaceId, callId);
    const quoteId = quoteIdFor(jobId);
    // Asked, and nothing reached the upstream.
    expect(upstreamState(dataDir).counters.submitRequests).toBe(0);

    const approved = await api
      .gql<{ resolveCheckpoint: { changed: boolean } }>(token, RESOLVE, { taskId, checkpointId: card.checkpointId })
      .catch((error: unknown) => ({ lost: error }));
    // The answer normally arrives first; the generation service's sweep may reach the fault point
    // between the append and the answer, and then the connection drops with the process. Either
    // way the approval must be on the task stream (checked below), the person's one decision.
    if (!('lost' in approved)) {
      expect(approved.errors).toBeUndefined();
      expect(approved.data?.resolveCheckpoint.changed).toBe(true);
    }

    // The generation service went to apply the approval and the process died there, by SIGKILL.
    let timer: NodeJS.Timeout | undefined;
    const exit = await Promise.race([
      api.exited,
      new Promise<'alive'>((resolve) => (timer = setTimeout(() => resolve('alive'), 30_000))),
    ]);
    clearTimeout(timer);
    expect(exit).toEqual({ code: null, signal: 'SIGKILL' });
    expect(JSON.parse(readFileSync(path.join(dataDir, KILLED_MARKER), 'utf8'))).toMatchObject({ jobId });

    const atKill = await readStore(dataDir, async (store) => ({
      head: await store.headPosition(),
      task: await store.readStream(streams.task(taskId)),
      job: await store.readStream(streams.generation(jobId)),
      account: await store.readStream(streams.account(workspaceId)),
    }));
    // The person's decision is on the task; nothing consumed it: no approved quote, no
    // reservation, no submission, no job upstream.
    expect(ofType(atKill.task, 'CheckpointResolved').map((e) => e.data)).toEqual([
      expect.objectContaining({ checkpointId: card.checkpointId, decision: 'approve', callId, resolvedBy: 'dev' }),
    ]);
    expect(ofType(atKill.task, 'CheckpointOpened')).toHaveLength(1);
    expect(atKill.job.map((e) => e.type)).toContain('GenerationApprovalRequested');
    expect(
      atKill.job.filter((e) => e.type === 'GenerationSubmissionStarted' || e.type === 'GenerationSubmitted'),
    ).toEqual([]);
    expect(
      atKill.account.filter(
        (e) => (e.type === 'QuoteApproved' || e.type === 'FundsReserved') && JSON.stringify(e.data).includes(quoteId),
      ),
    ).toEqual([]);
    expect(ofType(atKill.account, 'FundsReserved')).toEqual([]);
    expect(upstreamState(dataDir).jobs.filter((j) => j.idempotencyKey === callId)).toEqual([]);

    // The dead process's upstream child leaves with it (its stdin closed); wait until it has, so
    // the new one alone owns the state file.
    const oldUpstream = String(api.lines.find((l) => l.msg === 'simulated media upstream started')?.simUpstream);
    await waitFor(
      () =>
        fetch(`${oldUpstream}/healthz`).then(
          () => false,
          () => true,
        ),
      'the killed process’s upstream child gone',
      15_000,
    );

    // ---- the second process: `npm start` on the same data directory ---------------------------
    second = await startStandaloneApi(await envWithPort(), { dataDir });
    const restarted = second;
    const again = restarted.devToken;
    const done = await eventually(
      () => restarted.gql<JobRead>(again, JOBS, { taskId }),
      (r) => r.data?.generationJobs.some((j) => j.id === jobId && j.phase === 'completed') === true,
      'the approved job completed after the restart',
      45_000,
    ).catch(async (error: unknown) => {
      throw new Error(`${String(error)}\n${await timeline(dataDir!, taskId)}`);
    });
    expect(done.data!.generationJobs).toEqual([
      expect.objectContaining({ id: jobId, callId, phase: 'completed', artifactId: expect.any(String) }),
    ]);
    expect(done.data!.generationJobs[0].chargedMinor).toBeGreaterThan(0);
    const finished = await eventually(
      () => restarted.gql<TaskRead>(again, TASK, { id: taskId }),
      (r) =>
        (r.data?.task?.turns.edges.length ?? 0) > 0 &&
        r.data!.task!.turns.edges.every((e) => e.node.status === 'COMPLETED'),
      'the task’s turn completed',
      30_000,
    ).catch(async (error: unknown) => {
      // Where the task stood instead, so a failure says what the runtime did.
      throw new Error(`${String(error)}\n${await timeline(dataDir!, taskId)}`);
    });
    expect(finished.data!.task!.pendingCheckpoints).toEqual([]);

    const turnId = callId.split(':')[0];
    const after = await readStore(dataDir, async (store) => ({
      task: await store.readStream(streams.task(taskId)),
      turn: await store.readStream(streams.turn(turnId)),
      job: await store.readStream(streams.generation(jobId)),
      account: await store.readStream(streams.account(workspaceId)),
      sinceKill: await store.readAll({ fromPosition: atKill.head ?? 'start' }),
    }));
    const mine = (events: EventEnvelope[]) =>
      events.filter((e) => JSON.stringify(e.data).includes(jobId) || JSON.stringify(e.data).includes(quoteId));
    // Exactly once: one intent to send, one upstream id, one job upstream under the call's key.
    expect(ofType(after.job, 'GenerationSubmissionStarted')).toHaveLength(1);
    expect(ofType(after.job, 'GenerationSubmitted')).toHaveLength(1);
    expect(ofType(after.job, 'GenerationCompleted')).toHaveLength(1);
    const upstream = upstreamState(dataDir);
    expect(upstream.jobs.filter((j) => j.idempotencyKey === callId)).toEqual([
      expect.objectContaining({
        id: (ofType(after.job, 'GenerationSubmitted')[0].data as { upstreamJobId: string }).upstreamJobId,
        status: 'completed',
      }),
    ]);
    expect(upstream.counters).toMatchObject({ submitRequests: 1, idempotentReplays: 0 });
    // The turn started the call once, got its one result, and resumed once to answer.
    const ofCall = (type: string) =>
      ofType(after.turn, type).filter((e) => (e.data as { callId: string }).callId === callId);
    expect([ofCall('ToolCallStarted').length, ofCall('ToolCallCompleted').length]).toEqual([1, 1]);
    expect(ofCall('ToolCallCompleted')[0].data).toMatchObject({ status: 'ok', result: { jobId } });
    expect(ofType(after.turn, 'TurnResumed')).toHaveLength(1);
    // Approved once in the person's name, from their card; charged once.
    expect(
      mine(ofType(after.account, 'QuoteApproved')).map((e) => e.data as { checkpointId?: string; approvedBy: string }),
    ).toEqual([expect.objectContaining({ checkpointId: card.checkpointId, approvedBy: 'dev' })]);
    expect(mine(ofType(after.account, 'JobCharged'))).toHaveLength(1);
    // Never asked again: the task has the one card, answered once, and nothing after the kill
    // opened a card anywhere.
    expect(ofType(after.task, 'CheckpointOpened').map((e) => e.data)).toEqual([
      expect.objectContaining({ checkpointId: card.checkpointId, kind: 'approval', callId }),
    ]);
    expect(ofType(after.task, 'CheckpointResolved')).toHaveLength(1);
    expect(ofType(after.sinceKill, 'CheckpointOpened')).toEqual([]);
    expect(ofType(after.job, 'GenerationApprovalRequested')).toHaveLength(1);
  }, 150_000);
});
