import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { waitFor } from '@lomo/bus/testing';
import { streams, type NewEvent } from '@lomo/contracts';
import { SqliteEventStore } from '@lomo/eventstore';
import type { DeliveryBody } from '@lomo/webhooks';
import { liveClient, subscribe } from '../live/support/live-client';
import { sendAndSettle } from './support/queries';
import {
  createToken,
  eventually,
  startStandaloneApi,
  type GraphqlResponse,
  type RunningApi,
} from './support/standalone-api';

// The person's side of a task's plan through the real GraphQL endpoint: brief, checklist, item
// status, autonomy, the plan budget, checkpoint cards (CHOOSE / ADJUST) and the checkpointOpened
// notification (a webhook to a real local receiver, and a graphql-ws subscription).

const codeOf = (r: GraphqlResponse<unknown>) => r.errors?.[0]?.extensions?.code;

const TASK = `query($id: ID!, $t: String) {
  task(id: $id, consistentWith: $t) {
    id status autonomy
    brief { version text }
    checklist { itemId title dependsOn status note needsConfirmation evidence { kind artifactId version jobId checkpointId } }
    pendingCheckpoints { checkpointId taskId kind question itemId callId options { optionId label } resolution { decision } }
    checkpoints { checkpointId kind resolution { decision note choice resolvedBy } }
    resolved: checkpoints(state: RESOLVED) { checkpointId }
    open: checkpoints(state: OPEN) { checkpointId }
    planBudget { currency approvedMinor spentMinor }
    lastContinuation { decision }
  }
}`;
const EVENTS = `query($stream: String!, $from: Int!) {
  events(streamId: $stream, first: 100, fromRevision: $from) { edges { node { revision type dataJson actorJson } } }
}`;
const EDIT_BRIEF = `mutation($taskId: ID!, $brief: String!) { editBrief(taskId: $taskId, brief: $brief) { taskId changed consistencyToken } }`;
const EDIT_CHECKLIST = `mutation($taskId: ID!, $items: [ChecklistItemInput!]!) {
  editChecklist(taskId: $taskId, items: $items) { taskId changed consistencyToken }
}`;
const SET_STATUS = `mutation($taskId: ID!, $itemId: ID!, $status: ChecklistItemStatus!, $note: String) {
  setChecklistItemStatus(taskId: $taskId, itemId: $itemId, status: $status, note: $note) { taskId changed consistencyToken }
}`;
const SET_AUTONOMY = `mutation($taskId: ID!, $level: AutonomyLevel!) {
  setAutonomy(taskId: $taskId, level: $level) { taskId changed consistencyToken }
}`;
const APPROVE_PLAN_BUDGET = `mutation($taskId: ID!, $amount: Int!, $currency: String!, $key: String!) {
  approvePlanBudget(taskId: $taskId, amountMinor: $amount, currency: $currency, idempotencyKey: $key) {
    taskId budgetId changed consistencyToken
  }
}`;
const ACCOUNT = `query($t: String) { account(consistentWith: $t) { currencies { currency approvedBudgetMinor } } }`;
const RESOLVE = `mutation($taskId: ID!, $checkpointId: ID!, $decision: CheckpointDecision!, $note: String, $choice: String) {
  resolveCheckpoint(taskId: $taskId, checkpointId: $checkpointId, decision: $decision, note: $note, choice: $choice) {
    taskId checkpointId changed consistencyToken
  }
}`;
const CHECKPOINT_OPENED = `subscription { checkpointOpened {
  cursor consistencyToken card { checkpointId taskId kind question itemId callId options { optionId label } resolution { decision } }
} }`;

interface Card {
  checkpointId: string;
  taskId: string;
  kind: string;
  question: string;
  itemId: string | null;
  callId: string | null;
  options: Array<{ optionId: string; label: string }>;
  resolution: { decision: string } | null;
}
interface TaskView {
  id: string;
  status: string;
  autonomy: string;
  brief: { version: number; text: string } | null;
  checklist: Array<{
    itemId: string;
    title: string;
    dependsOn: string[];
    status: string;
    note: string | null;
    needsConfirmation: boolean;
    evidence: { kind: string; checkpointId: string | null } | null;
  }>;
  pendingCheckpoints: Card[];
  checkpoints: Array<{
    checkpointId: string;
    kind: string;
    resolution: { decision: string; note: string | null; choice: string | null; resolvedBy: string } | null;
  }>;
  resolved: Array<{ checkpointId: string }>;
  open: Array<{ checkpointId: string }>;
  planBudget: Array<{ currency: string; approvedMinor: number; spentMinor: number }>;
  lastContinuation: { decision: string } | null;
}
interface Written {
  taskId: string;
  changed: boolean;
  consistencyToken: string;
}

/** A receiving integration: keeps every delivery's parsed body; answers 204. */
async function startReceiver() {
  const bodies: DeliveryBody[] = [];
  const server: Server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      bodies.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as DeliveryBody);
      res.statusCode = 204;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    bodies,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('the person edits a task’s plan through the API (brief, checklist, autonomy, plan budget, checkpoint cards)', () => {
  let api: RunningApi;
  let other: { token: string };
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let taskId: string;
  let workspaceId: string;

  const gql = <T>(query: string, variables?: Record<string, unknown>, token = api.devToken) =>
    api.gql<T>(token, query, variables);
  const readTask = async (t?: string) => {
    const read = await gql<{ task: TaskView | null }>(TASK, { id: taskId, t });
    expect(read.errors).toBeUndefined();
    return read.data!.task!;
  };
  /** Every event of a stream (pages of 100 by revision). */
  const streamEvents = async (stream: string, token = api.devToken) => {
    const all: Array<{ type: string; data: Record<string, unknown>; actor: Record<string, unknown> }> = [];
    for (let from = 0; ; from += 100) {
      type Page = {
        events: { edges: Array<{ node: { revision: number; type: string; dataJson: string; actorJson: string } }> };
      };
      const read = await gql<Page>(EVENTS, { stream, from }, token);
      expect(read.errors).toBeUndefined();
      const edges = read.data!.events.edges;
      for (const e of edges)
        all.push({
          type: e.node.type,
          data: JSON.parse(e.node.dataJson) as Record<string, unknown>,
          actor: JSON.parse(e.node.actorJson) as Record<string, unknown>,
        });
      if (edges.length < 100) return all;
    }
  };
  const events = () => streamEvents(`task-${taskId}`);
  const countOf = async (type: string) => (await events()).filter((e) => e.type === type).length;
  /** Appends as the runtime would (the offline model opens no question or review cards by itself). */
  const appendToTask = async (list: Array<Omit<NewEvent, 'eventId' | 'metadata'>>) => {
    const store = new SqliteEventStore({ filename: path.join(api.dataDir, 'events.sqlite') });
    try {
      const metadata = {
        correlationId: randomUUID(),
        causationId: null,
        workspaceId,
        actor: { kind: 'system' as const, component: 'runtime' },
      };
      await store.append(
        streams.task(taskId),
        list.map((e) => ({ ...e, eventId: randomUUID(), metadata })),
        'any',
      );
    } finally {
      await store.close();
    }
  };
  const openCard = async (data: Record<string, unknown>) => {
    const checkpointId = randomUUID();
    await appendToTask([{ type: 'CheckpointOpened', data: { checkpointId, turnId: randomUUID(), ...data } }]);
    await eventually(
      () => readTask(),
      (t) => t.pendingCheckpoints.some((c) => c.checkpointId === checkpointId),
      'the card in the task read model',
    );
    return checkpointId;
  };

  beforeAll(async () => {
    receiver = await startReceiver();
    api = await startStandaloneApi({
      LOMO_WEBHOOK_POLL_MS: '50',
      LOMO_WEBHOOK_RECONCILE_MS: '50',
      LOMO_WEBHOOK_HTTP_ALLOWLIST: '127.0.0.1',
      // Many small reads in a row (each check reads the task stream): not what the limiter is about.
      LOMO_API_RATE_LIMIT_BURST: '10000',
      LOMO_API_RATE_LIMIT_PER_SECOND: '10000',
      LOMO_API_IP_RATE_LIMIT_BURST: '10000',
      LOMO_API_IP_RATE_LIMIT_PER_SECOND: '10000',
    });
    other = await createToken(api, 'ws_other', 'mallory');
    ({ taskId } = await sendAndSettle(api, api.devToken, 'Please take a note: buy oat milk'));
    const me = await gql<{ me: { workspaceId: string } }>('{ me { workspaceId } }');
    workspaceId = me.data!.me.workspaceId;
  }, 120_000);

  afterAll(async () => {
    await api?.stop();
    await receiver?.close();
  });

  it('Task shows brief, checklist, checkpoints, autonomy and plan budget before any edit (defaults), lastContinuation kept', async () => {
    const task = await readTask();
    expect(task).toMatchObject({
      brief: null,
      checklist: [],
      pendingCheckpoints: [],
      autonomy: 'ASSISTED',
      planBudget: [],
    });
    expect(task.lastContinuation).not.toBeNull();
  });

  it('the person edits the brief: a new version by the person; the same text again changes nothing', async () => {
    const first = await gql<{ editBrief: Written }>(EDIT_BRIEF, { taskId, brief: 'Oat milk, two litres, organic.' });
    expect(first.errors).toBeUndefined();
    expect(first.data!.editBrief.changed).toBe(true);
    const again = await gql<{ editBrief: Written }>(EDIT_BRIEF, { taskId, brief: 'Oat milk, two litres, organic.' });
    expect(again.data!.editBrief.changed).toBe(false);
    const task = await readTask(again.data!.editBrief.consistencyToken);
    expect(task.brief).toEqual({ version: 1, text: 'Oat milk, two litres, organic.' });
    const briefs = (await events()).filter((e) => e.type === 'BriefUpdated');
    expect(briefs).toHaveLength(1);
    expect(briefs[0].actor).toEqual({ kind: 'user', userId: expect.any(String) });
  });

  it('editBrief: bad input is VALIDATION_FAILED, another workspace’s task NOT_FOUND, and nothing is recorded', async () => {
    const before = await events();
    const blank = await gql(EDIT_BRIEF, { taskId, brief: '   ' });
    const long = await gql(EDIT_BRIEF, { taskId, brief: 'x'.repeat(20_001) });
    const badId = await gql(EDIT_BRIEF, { taskId: 'not-a-uuid', brief: 'ok' });
    const foreign = await gql(EDIT_BRIEF, { taskId, brief: 'mine now' }, other.token);
    expect([blank, long, badId, foreign].map(codeOf)).toEqual([
      'VALIDATION_FAILED',
      'VALIDATION_FAILED',
      'VALIDATION_FAILED',
      'NOT_FOUND',
    ]);
    expect(await events()).toEqual(before);
  });

  it('the person edits the checklist; a re-plan keeps same-id items’ status and note; the same plan again changes nothing', async () => {
    const plan = [
      { itemId: 'shop', title: 'Find a shop', dependsOn: [] },
      { itemId: 'buy', title: 'Buy it', dependsOn: ['shop'], needsConfirmation: true },
    ];
    const planned = await gql<{ editChecklist: Written }>(EDIT_CHECKLIST, { taskId, items: plan });
    expect(planned.errors).toBeUndefined();
    expect(planned.data!.editChecklist.changed).toBe(true);
    const retry = await gql<{ editChecklist: Written }>(EDIT_CHECKLIST, { taskId, items: plan });
    expect(retry.data!.editChecklist.changed).toBe(false);
    expect(await countOf('ChecklistPlanned')).toBe(1);

    const status = await gql<{ setChecklistItemStatus: Written }>(SET_STATUS, {
      taskId,
      itemId: 'shop',
      status: 'IN_PROGRESS',
      note: 'the one on the corner',
    });
    expect(status.errors).toBeUndefined();
    const replanned = await gql<{ editChecklist: Written }>(EDIT_CHECKLIST, {
      taskId,
      items: [
        { itemId: 'shop', title: 'Find a shop nearby', dependsOn: [] },
        { itemId: 'buy', title: 'Buy it', dependsOn: ['shop'], needsConfirmation: true },
        { itemId: 'store', title: 'Put it in the fridge', dependsOn: ['buy'] },
      ],
    });
    const task = await readTask(replanned.data!.editChecklist.consistencyToken);
    expect(task.checklist).toEqual([
      {
        itemId: 'shop',
        title: 'Find a shop nearby',
        dependsOn: [],
        status: 'IN_PROGRESS',
        note: 'the one on the corner',
        needsConfirmation: false,
        evidence: null,
      },
      {
        itemId: 'buy',
        title: 'Buy it',
        dependsOn: ['shop'],
        status: 'PENDING',
        note: null,
        needsConfirmation: true,
        evidence: null,
      },
      {
        itemId: 'store',
        title: 'Put it in the fridge',
        dependsOn: ['buy'],
        status: 'PENDING',
        note: null,
        needsConfirmation: false,
        evidence: null,
      },
    ]);
  });

  it('editChecklist: duplicate ids, an unknown dependency, a bad id, an empty plan are VALIDATION_FAILED; another workspace NOT_FOUND; nothing recorded', async () => {
    const before = await events();
    const dup = await gql(EDIT_CHECKLIST, {
      taskId,
      items: [
        { itemId: 'a', title: 'A', dependsOn: [] },
        { itemId: 'a', title: 'again', dependsOn: [] },
      ],
    });
    const unknownDep = await gql(EDIT_CHECKLIST, { taskId, items: [{ itemId: 'a', title: 'A', dependsOn: ['zzz'] }] });
    const badId = await gql(EDIT_CHECKLIST, { taskId, items: [{ itemId: 'Not OK!', title: 'A' }] });
    const empty = await gql(EDIT_CHECKLIST, { taskId, items: [] });
    const foreign = await gql(EDIT_CHECKLIST, { taskId, items: [{ itemId: 'a', title: 'A' }] }, other.token);
    expect([dup, unknownDep, badId, empty, foreign].map(codeOf)).toEqual([
      'VALIDATION_FAILED',
      'VALIDATION_FAILED',
      'VALIDATION_FAILED',
      'VALIDATION_FAILED',
      'NOT_FOUND',
    ]);
    expect(await events()).toEqual(before);
  });

  it('setChecklistItemStatus: the person marks skipped, blocked (with a note), pending, done on their word; a retry changes nothing', async () => {
    for (const [status, note] of [
      ['SKIPPED', undefined],
      ['BLOCKED', 'the shop is closed'],
      ['PENDING', undefined],
    ] as const) {
      const set = await gql<{ setChecklistItemStatus: Written }>(SET_STATUS, { taskId, itemId: 'store', status, note });
      expect(set.errors).toBeUndefined();
      expect(set.data!.setChecklistItemStatus.changed).toBe(true);
      const item = (await readTask(set.data!.setChecklistItemStatus.consistencyToken)).checklist.find(
        (i) => i.itemId === 'store',
      );
      expect(item?.status).toBe(status);
    }
    const done = await gql<{ setChecklistItemStatus: Written }>(SET_STATUS, {
      taskId,
      itemId: 'store',
      status: 'DONE',
    });
    expect(done.errors).toBeUndefined();
    const again = await gql<{ setChecklistItemStatus: Written }>(SET_STATUS, {
      taskId,
      itemId: 'store',
      status: 'DONE',
    });
    expect(again.data!.setChecklistItemStatus.changed).toBe(false);
    const changes = (await events()).filter((e) => e.type === 'ChecklistItemChanged' && e.data.itemId === 'store');
    expect(changes.map((e) => [e.data.status, e.actor.kind])).toEqual([
      ['skipped', 'user'],
      ['blocked', 'user'],
      ['pending', 'user'],
      ['done', 'user'],
    ]);
  });

  it('setChecklistItemStatus: an unknown item is CHECKLIST_ITEM_NOT_FOUND, a bad id or note VALIDATION_FAILED, another workspace NOT_FOUND; nothing recorded', async () => {
    const before = await events();
    const unknown = await gql(SET_STATUS, { taskId, itemId: 'nope', status: 'SKIPPED' });
    const badId = await gql(SET_STATUS, { taskId, itemId: 'NOPE!', status: 'SKIPPED' });
    const badNote = await gql(SET_STATUS, { taskId, itemId: 'store', status: 'BLOCKED', note: 'x'.repeat(2_001) });
    const foreign = await gql(SET_STATUS, { taskId, itemId: 'store', status: 'SKIPPED' }, other.token);
    expect([unknown, badId, badNote, foreign].map(codeOf)).toEqual([
      'CHECKLIST_ITEM_NOT_FOUND',
      'VALIDATION_FAILED',
      'VALIDATION_FAILED',
      'NOT_FOUND',
    ]);
    expect(await events()).toEqual(before);
  });

  it('setAutonomy: MANUAL then AUTONOMOUS, by the person; the same level again changes nothing; bad input and another workspace refused', async () => {
    const manual = await gql<{ setAutonomy: Written }>(SET_AUTONOMY, { taskId, level: 'MANUAL' });
    expect(manual.errors).toBeUndefined();
    expect((await readTask(manual.data!.setAutonomy.consistencyToken)).autonomy).toBe('MANUAL');
    const again = await gql<{ setAutonomy: Written }>(SET_AUTONOMY, { taskId, level: 'MANUAL' });
    expect(again.data!.setAutonomy.changed).toBe(false);
    const autonomous = await gql<{ setAutonomy: Written }>(SET_AUTONOMY, { taskId, level: 'AUTONOMOUS' });
    expect((await readTask(autonomous.data!.setAutonomy.consistencyToken)).autonomy).toBe('AUTONOMOUS');

    const before = await events();
    const badLevel = await gql(SET_AUTONOMY, { taskId, level: 'YOLO' });
    const badId = await gql(SET_AUTONOMY, { taskId: 'x', level: 'MANUAL' });
    const foreign = await gql(SET_AUTONOMY, { taskId, level: 'MANUAL' }, other.token);
    expect(badLevel.errors?.length).toBeGreaterThan(0);
    expect([badId, foreign].map(codeOf)).toEqual(['VALIDATION_FAILED', 'NOT_FOUND']);
    expect(await events()).toEqual(before);
    expect((await events()).filter((e) => e.type === 'AutonomyChanged').map((e) => e.data)).toEqual([
      { level: 'manual', by: expect.any(String) },
      { level: 'autonomous', by: expect.any(String) },
    ]);
  });

  it('approvePlanBudget twice with one key approves once, on the task and on the account; another key adds up', async () => {
    const approvedOnAccount = async (t?: string) =>
      (
        await gql<{ account: { currencies: Array<{ currency: string; approvedBudgetMinor: number }> } }>(ACCOUNT, { t })
      ).data!.account.currencies.find((c) => c.currency === 'USD')?.approvedBudgetMinor ?? 0;
    const accountBefore = await approvedOnAccount();
    const first = await gql<{ approvePlanBudget: Written & { budgetId: string } }>(APPROVE_PLAN_BUDGET, {
      taskId,
      amount: 500,
      currency: 'USD',
      key: 'plan-1',
    });
    expect(first.errors).toBeUndefined();
    expect(first.data!.approvePlanBudget.changed).toBe(true);
    const retry = await gql<{ approvePlanBudget: Written & { budgetId: string } }>(APPROVE_PLAN_BUDGET, {
      taskId,
      amount: 500,
      currency: 'USD',
      key: 'plan-1',
    });
    expect(retry.data!.approvePlanBudget).toMatchObject({
      changed: false,
      budgetId: first.data!.approvePlanBudget.budgetId,
    });
    const token = retry.data!.approvePlanBudget.consistencyToken;
    expect((await readTask(token)).planBudget).toEqual([{ currency: 'USD', approvedMinor: 500, spentMinor: 0 }]);
    expect(await approvedOnAccount(token)).toBe(accountBefore + 500);
    const recorded = (await events()).filter((e) => e.type === 'PlanBudgetApproved');
    expect(recorded.map((e) => e.data)).toEqual([
      {
        budgetId: first.data!.approvePlanBudget.budgetId,
        amountMinor: 500,
        currency: 'USD',
        approvedBy: expect.any(String),
      },
    ]);

    const second = await gql<{ approvePlanBudget: Written }>(APPROVE_PLAN_BUDGET, {
      taskId,
      amount: 250,
      currency: 'USD',
      key: 'plan-2',
    });
    const after = second.data!.approvePlanBudget.consistencyToken;
    expect((await readTask(after)).planBudget).toEqual([{ currency: 'USD', approvedMinor: 750, spentMinor: 0 }]);
    expect(await approvedOnAccount(after)).toBe(accountBefore + 750);
  });

  it('approvePlanBudget: bad amount or currency VALIDATION_FAILED, one key with another amount ACCOUNT_BUDGET_CONFLICT, another workspace NOT_FOUND; nothing changed', async () => {
    const taskBefore = await events();
    const accountEvents = () => streamEvents(streams.account(workspaceId));
    const accountBefore = await accountEvents();
    expect(accountBefore?.length).toBeGreaterThan(0);
    const zero = await gql(APPROVE_PLAN_BUDGET, { taskId, amount: 0, currency: 'USD', key: 'k-zero' });
    const huge = await gql(APPROVE_PLAN_BUDGET, { taskId, amount: 100_000_001, currency: 'USD', key: 'k-huge' });
    const currency = await gql(APPROVE_PLAN_BUDGET, { taskId, amount: 10, currency: 'usd', key: 'k-cur' });
    const key = await gql(APPROVE_PLAN_BUDGET, { taskId, amount: 10, currency: 'USD', key: 'has spaces' });
    const conflict = await gql(APPROVE_PLAN_BUDGET, { taskId, amount: 999, currency: 'USD', key: 'plan-1' });
    const foreign = await gql(APPROVE_PLAN_BUDGET, { taskId, amount: 10, currency: 'USD', key: 'theirs' }, other.token);
    expect([zero, huge, currency, key, conflict, foreign].map(codeOf)).toEqual([
      'VALIDATION_FAILED',
      'VALIDATION_FAILED',
      'VALIDATION_FAILED',
      'VALIDATION_FAILED',
      'ACCOUNT_BUDGET_CONFLICT',
      'NOT_FOUND',
    ]);
    // Neither the task nor the account got an event from these refusals.
    expect(await events()).toEqual(taskBefore);
    expect(await accountEvents()).toEqual(accountBefore);
  });

  it('resolveCheckpoint CHOOSE: an option the card does not offer is VALIDATION_FAILED before the domain; a known one is recorded with the choice', async () => {
    const checkpointId = await openCard({
      kind: 'question',
      question: 'Which milk?',
      options: [
        { optionId: 'oat', label: 'Oat' },
        { optionId: 'soy', label: 'Soy' },
      ],
    });
    const card = (await readTask()).pendingCheckpoints.find((c) => c.checkpointId === checkpointId);
    expect(card).toEqual({
      checkpointId,
      taskId,
      kind: 'QUESTION',
      question: 'Which milk?',
      itemId: null,
      callId: null,
      options: [
        { optionId: 'oat', label: 'Oat' },
        { optionId: 'soy', label: 'Soy' },
      ],
      resolution: null,
    });
    const before = await countOf('CheckpointResolved');
    const unknown = await gql(RESOLVE, { taskId, checkpointId, decision: 'CHOOSE', choice: 'rice' });
    const missing = await gql(RESOLVE, { taskId, checkpointId, decision: 'CHOOSE' });
    const stray = await gql(RESOLVE, { taskId, checkpointId, decision: 'ANSWER', note: 'oat', choice: 'oat' });
    const foreign = await gql(RESOLVE, { taskId, checkpointId, decision: 'CHOOSE', choice: 'oat' }, other.token);
    expect([unknown, missing, stray, foreign].map(codeOf)).toEqual([
      'VALIDATION_FAILED',
      'VALIDATION_FAILED',
      'VALIDATION_FAILED',
      'NOT_FOUND',
    ]);
    expect(await countOf('CheckpointResolved')).toBe(before);

    const chosen = await gql<{ resolveCheckpoint: Written }>(RESOLVE, {
      taskId,
      checkpointId,
      decision: 'CHOOSE',
      choice: 'soy',
    });
    expect(chosen.errors).toBeUndefined();
    expect(chosen.data!.resolveCheckpoint.changed).toBe(true);
    const task = await readTask(chosen.data!.resolveCheckpoint.consistencyToken);
    expect(task.checkpoints.find((c) => c.checkpointId === checkpointId)?.resolution).toEqual({
      decision: 'CHOOSE',
      note: null,
      choice: 'soy',
      resolvedBy: expect.any(String),
    });
    expect(task.resolved.map((c) => c.checkpointId)).toContain(checkpointId);
    expect(task.open.map((c) => c.checkpointId)).not.toContain(checkpointId);

    // A retry of a decided card is refused and records nothing more.
    const retry = await gql(RESOLVE, { taskId, checkpointId, decision: 'CHOOSE', choice: 'soy' });
    expect(codeOf(retry)).toBe('CHECKPOINT_ALREADY_RESOLVED');
    expect(await countOf('CheckpointResolved')).toBe(before + 1);
  });

  it('resolveCheckpoint ADJUST: a note is required; with one the reviewed item is in progress again with the note', async () => {
    const checkpointId = await openCard({ kind: 'review', question: 'Is the shop right?', itemId: 'shop' });
    const before = await countOf('CheckpointResolved');
    const noNote = await gql(RESOLVE, { taskId, checkpointId, decision: 'ADJUST' });
    expect(codeOf(noNote)).toBe('VALIDATION_FAILED');
    expect(await countOf('CheckpointResolved')).toBe(before);

    const adjusted = await gql<{ resolveCheckpoint: Written }>(RESOLVE, {
      taskId,
      checkpointId,
      decision: 'ADJUST',
      note: 'a closer one, please',
    });
    expect(adjusted.errors).toBeUndefined();
    const task = await readTask(adjusted.data!.resolveCheckpoint.consistencyToken);
    expect(task.checkpoints.find((c) => c.checkpointId === checkpointId)?.resolution).toMatchObject({
      decision: 'ADJUST',
      note: 'a closer one, please',
    });
    // The agent may already be redoing the item (the adjustment owes the task a turn), so the
    // stream, not the item's current status, shows what the resolution did: in its append, the
    // item went back in progress with the person's note.
    const list = await events();
    const at = list.findIndex(
      (e) => e.type === 'CheckpointResolved' && (e.data as { checkpointId: string }).checkpointId === checkpointId,
    );
    expect(list[at + 1]).toMatchObject({
      type: 'ChecklistItemChanged',
      data: { itemId: 'shop', status: 'in_progress', note: 'a closer one, please' },
      actor: { kind: 'user' },
    });
  });

  it('checkpointOpened reaches a webhook (a real local receiver) and a graphql-ws subscriber of the workspace, not another workspace', async () => {
    const registered = await gql<{ registerWebhook: { webhook: { id: string } } }>(
      'mutation($url: String!) { registerWebhook(url: $url, eventTypes: ["CheckpointOpened"]) { webhook { id } } }',
      { url: receiver.url },
    );
    expect(registered.errors).toBeUndefined();
    type Notice = { checkpointOpened: { cursor: string; consistencyToken: string; card: Card } };
    const mine = liveClient(api, api.devToken);
    const theirs = liveClient(api, other.token);
    try {
      const live = subscribe<Notice>(mine, CHECKPOINT_OPENED);
      const foreign = subscribe<Notice>(theirs, CHECKPOINT_OPENED);
      // The subscription starts at the store's head once the server took it; give it that moment.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const options = [
        { optionId: 'keep', label: 'Keep it' },
        { optionId: 'redo', label: 'Redo it' },
      ];
      const checkpointId = await openCard({ kind: 'review', question: 'Happy with the list?', itemId: 'buy', options });

      await live.waitFor((p) => p.checkpointOpened.card.checkpointId === checkpointId, 'the notice');
      // Cards the runtime opens by itself meanwhile (a review after the adjusted stage) come too.
      expect(live.payloads.map((p) => p.checkpointOpened.card).filter((c) => c.checkpointId === checkpointId)).toEqual([
        {
          checkpointId,
          taskId,
          kind: 'REVIEW',
          question: 'Happy with the list?',
          itemId: 'buy',
          callId: null,
          options,
          resolution: null,
        },
      ]);

      await waitFor(
        () =>
          receiver.bodies.some(
            (b) => b.type === 'CheckpointOpened' && (b.data as { checkpointId?: string }).checkpointId === checkpointId,
          ),
        'the webhook delivery',
        30_000,
      );
      const delivered = receiver.bodies.find(
        (b) => (b.data as { checkpointId?: string }).checkpointId === checkpointId,
      )!;
      expect(delivered).toMatchObject({
        type: 'CheckpointOpened',
        taskId,
        data: { checkpointId, kind: 'review', question: 'Happy with the list?', itemId: 'buy', options },
        metadata: { streamId: `task-${taskId}`, workspaceId },
      });
      expect(foreign.payloads).toEqual([]);
      live.unsubscribe();
      foreign.unsubscribe();
    } finally {
      await mine.dispose();
      await theirs.dispose();
    }
  });

  it('the main line shows the task’s open checkpoint cards on its messages', async () => {
    const task = await readTask();
    const line = await gql<{
      mainline: {
        edges: Array<{
          node: { routing: { taskId: string | null } | null; pendingCheckpoints: Array<{ checkpointId: string }> };
        }>;
      };
    }>('{ mainline(first: 20) { edges { node { routing { taskId } pendingCheckpoints { checkpointId } } } } }');
    expect(line.errors).toBeUndefined();
    const ofTask = line.data!.mainline.edges.filter((e) => e.node.routing?.taskId === taskId);
    expect(ofTask.length).toBeGreaterThan(0);
    for (const e of ofTask)
      expect(e.node.pendingCheckpoints.map((c) => c.checkpointId)).toEqual(
        task.pendingCheckpoints.map((c) => c.checkpointId),
      );
  });
});
