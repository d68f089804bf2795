import { liveClient, LiveSubscription } from '../live/support/live-client';
import { SEND_MESSAGE, sendAndSettle } from './support/queries';
import {
  createToken,
  eventually,
  startStandaloneApi,
  type GraphqlResponse,
  type RunningApi,
} from './support/standalone-api';

// Issue 16's cards through the public GraphQL API of a standalone process, driven by the product
// alone (the offline model plans the video brief, the runtime opens the cards): the storyboard's
// REVIEW card, the plan's BUDGET card with its quote, a paid call's APPROVAL card with its price;
// each as an item of its own on the main line of the person who asked, resolved there as on the
// Task; authorization is the person's (an integration token is refused and nothing is recorded);
// a checklist item's output is typed on the way in.

const BRIEF =
  'Please make a short video for the harbour ferry company: the morning crossing, gulls over the wake, passengers with coffee on deck';

const codeOf = (r: GraphqlResponse<unknown>) => r.errors?.[0]?.extensions?.code;

const CARD = `checkpointId taskId kind question itemId callId
  callQuote { quoteId amountMinor currency }
  planQuote { amountMinor currency totalMinor approvedMinor lines { itemId media count amountMinor } }
  resolution { decision resolvedBy }`;
const TASK = `query($id: ID!, $t: String) { task(id: $id, consistentWith: $t) {
  autonomy
  checklist { itemId status output { kind media count } linkedArtifactIds evidence { kind jobId jobIds checkpointId } }
  pendingCheckpoints { ${CARD} }
  checkpoints { ${CARD} }
  planBudget { currency approvedMinor spentMinor approvals { budgetId amountMinor approvedBy approvedAt checkpointId } }
  lastContinuation { decision reason } } }`;
const MAINLINE = `query($t: String) { mainline(first: 20, consistentWith: $t) { edges { node {
  id kind seq createdAt text checkpoints { ${CARD} } task { id } } } } }`;
const MAINLINE_UPDATED = `subscription { mainlineUpdated(first: 10) { snapshot consistencyToken items {
  id kind checkpoints { checkpointId kind resolution { decision } } } } }`;
const RESOLVE = `mutation($taskId: ID!, $checkpointId: ID!, $decision: CheckpointDecision!) {
  resolveCheckpoint(taskId: $taskId, checkpointId: $checkpointId, decision: $decision) { changed consistencyToken } }`;
const SET_AUTONOMY = `mutation($taskId: ID!, $level: AutonomyLevel!) {
  setAutonomy(taskId: $taskId, level: $level) { changed consistencyToken } }`;
const EDIT_CHECKLIST = `mutation($taskId: ID!, $items: [ChecklistItemInput!]!) {
  editChecklist(taskId: $taskId, items: $items) { changed } }`;
const EVENTS = `query($stream: String!, $from: Int!) {
  events(streamId: $stream, first: 100, fromRevision: $from) { edges { node { type dataJson actorJson } } } }`;

interface Card {
  checkpointId: string;
  taskId: string;
  kind: string;
  question: string;
  itemId: string | null;
  callId: string | null;
  callQuote: { quoteId: string; amountMinor: number; currency: string } | null;
  planQuote: {
    amountMinor: number;
    currency: string;
    totalMinor: number;
    approvedMinor: number;
    lines: Array<{ itemId: string; media: string; count: number; amountMinor: number }>;
  } | null;
  resolution: { decision: string; resolvedBy: string } | null;
}
interface TaskRead {
  autonomy: string;
  checklist: Array<{
    itemId: string;
    status: string;
    output: { kind: string; media: string | null; count: number | null } | null;
    linkedArtifactIds: string[];
    evidence: { kind: string; jobId: string | null; jobIds: string[] | null; checkpointId: string | null } | null;
  }>;
  pendingCheckpoints: Card[];
  checkpoints: Card[];
  planBudget: Array<{
    currency: string;
    approvedMinor: number;
    spentMinor: number;
    approvals: Array<{
      budgetId: string;
      amountMinor: number;
      approvedBy: string;
      approvedAt: string | null;
      checkpointId: string | null;
    }>;
  }>;
  lastContinuation: { decision: string; reason: string } | null;
}
interface LineItem {
  id: string;
  kind: string | null;
  seq: number | null;
  createdAt: string | null;
  text: string | null;
  checkpoints: Card[];
  task: { id: string } | null;
}
interface LinePayload {
  mainlineUpdated: {
    snapshot: boolean;
    consistencyToken: string;
    items: Array<{
      id: string;
      kind: string | null;
      checkpoints: Array<{ checkpointId: string; kind: string; resolution: { decision: string } | null }>;
    }>;
  };
}

describe('autonomy cards through the API: review, budget and approval cards on the Task and on the main line', () => {
  let api: RunningApi;
  let integration: { token: string };
  let colleague: { token: string };
  let workspaceId: string;
  let taskId: string;
  let messageId: string;
  let reviewId: string;
  let budgetId: string;
  let live: LiveSubscription<LinePayload>;
  let stopLive: () => Promise<void>;

  const gql = <T>(query: string, variables?: Record<string, unknown>, token = api.devToken) =>
    api.gql<T>(token, query, variables);
  const readTask = async (t?: string) => {
    const read = await gql<{ task: TaskRead | null }>(TASK, { id: taskId, t });
    expect(read.errors).toBeUndefined();
    return read.data!.task!;
  };
  const mainline = async (token = api.devToken, t?: string) => {
    const read = await gql<{ mainline: { edges: Array<{ node: LineItem }> } }>(MAINLINE, { t }, token);
    expect(read.errors).toBeUndefined();
    return read.data!.mainline.edges.map((e) => e.node);
  };
  const cardsItem = (items: LineItem[]) => items.find((i) => i.kind === 'CHECKPOINTS' && i.task?.id === taskId);
  const streamEvents = async (stream: string) => {
    const all: Array<{ type: string; data: Record<string, unknown>; actor: Record<string, unknown> }> = [];
    for (let from = 0; ; from += 100) {
      type Page = { events: { edges: Array<{ node: { type: string; dataJson: string; actorJson: string } }> } };
      const read = await gql<Page>(EVENTS, { stream, from });
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
  /** The first pending card the accept picks, once the read model has it. */
  const pendingCard = async (accept: (card: Card) => boolean, what: string, timeoutMs = 60_000) => {
    const read = await eventually(
      () => readTask(),
      (t) => t.pendingCheckpoints.some(accept),
      what,
      timeoutMs,
    ).catch(async (error: unknown) => {
      const timeline = (await streamEvents(`task-${taskId}`)).map((e) => `${e.type} ${JSON.stringify(e.data)}`);
      throw new Error(`${String(error)}\n${JSON.stringify(await readTask())}\n${timeline.join('\n').slice(-6000)}`);
    });
    return read.pendingCheckpoints.find(accept)!;
  };

  beforeAll(async () => {
    api = await startStandaloneApi({
      // Many small reads in a row while the task runs: not what the limiter is about.
      LOMO_API_RATE_LIMIT_BURST: '10000',
      LOMO_API_RATE_LIMIT_PER_SECOND: '10000',
      LOMO_API_IP_RATE_LIMIT_BURST: '10000',
      LOMO_API_IP_RATE_LIMIT_PER_SECOND: '10000',
    });
    const me = await gql<{ me: { workspaceId: string; userId: string } }>('{ me { workspaceId userId } }');
    const { userId } = me.data!.me;
    workspaceId = me.data!.me.workspaceId;
    // An external system acting in the person's workspace, and another member of it.
    const created = await api.tokens([
      'create',
      '--workspace',
      workspaceId,
      '--user',
      userId,
      '--name',
      'ci',
      '--kind',
      'integration',
    ]);
    expect(created.code).toBe(0);
    integration = JSON.parse(created.stdout.trim()) as { token: string };
    colleague = await createToken(api, workspaceId, 'colleague');

    const client = liveClient(api, api.devToken);
    live = new LiveSubscription<LinePayload>(client, MAINLINE_UPDATED);
    stopLive = async () => {
      live.unsubscribe();
      await client.dispose();
    };
    await live.waitFor((p) => p.mainlineUpdated.snapshot, 'the main-line snapshot');

    const sent = await gql<{ sendMessage: { messageId: string } }>(SEND_MESSAGE, { text: BRIEF });
    messageId = sent.data!.sendMessage.messageId;
    const routed = await eventually(
      () =>
        gql<{ message: { routing: { taskId: string | null } | null } | null }>(
          'query($id: ID!) { message(id: $id) { routing { taskId } } }',
          { id: messageId },
        ),
      (r) => r.data?.message?.routing?.taskId != null,
      'routing',
    );
    taskId = routed.data!.message!.routing!.taskId!;
  }, 120_000);

  afterAll(async () => {
    await stopLive?.();
    await api?.stop();
  });

  it('the runtime’s REVIEW card is an item of its own on the main line of the person who asked, not on a colleague’s', async () => {
    const review = await pendingCard((c) => c.kind === 'REVIEW', 'the storyboard review card');
    reviewId = review.checkpointId;
    expect(review).toMatchObject({ taskId, itemId: 'storyboard', callQuote: null, planQuote: null, resolution: null });

    const item = cardsItem(
      await eventually(
        () => mainline(),
        (l) => cardsItem(l) !== undefined,
        'the cards item',
      ),
    );
    expect(item).toMatchObject({ kind: 'CHECKPOINTS', seq: null, text: null, task: { id: taskId } });
    expect(item!.checkpoints.find((c) => c.checkpointId === reviewId)).toEqual(review);
    // Newest first: the card opened after the brief was sent.
    const line = await mainline();
    expect(line.findIndex((i) => i.id === item!.id)).toBeLessThan(line.findIndex((i) => i.id === messageId));
    const byId = await gql<{ message: { id: string; kind: string } | null }>(
      'query($id: ID!) { message(id: $id) { id kind } }',
      { id: item!.id },
    );
    expect(byId.data?.message).toEqual({ id: item!.id, kind: 'CHECKPOINTS' });

    // A colleague shares the task, not the person's main line.
    expect(cardsItem(await mainline(colleague.token))).toBeUndefined();
    const theirs = await gql<{ message: unknown }>(
      'query($id: ID!) { message(id: $id) { id } }',
      { id: item!.id },
      colleague.token,
    );
    expect(theirs.data?.message).toBeNull();

    // The live main line pushed the item with the open card.
    await live.waitFor(
      (p) =>
        p.mainlineUpdated.items.some(
          (i) =>
            i.kind === 'CHECKPOINTS' && i.checkpoints.some((c) => c.checkpointId === reviewId && c.resolution === null),
        ),
      'the open review card on the live main line',
    );
  }, 60_000);

  it('resolveCheckpoint on the review card shows it resolved on the main line, live and read after the write', async () => {
    const approved = await gql<{ resolveCheckpoint: { changed: boolean; consistencyToken: string } }>(RESOLVE, {
      taskId,
      checkpointId: reviewId,
      decision: 'APPROVE',
    });
    expect(approved.errors).toBeUndefined();
    const token = approved.data!.resolveCheckpoint.consistencyToken;
    const card = cardsItem(await mainline(api.devToken, token))!.checkpoints.find((c) => c.checkpointId === reviewId);
    expect(card?.resolution).toEqual({ decision: 'APPROVE', resolvedBy: expect.any(String) });
    await live.waitFor(
      (p) =>
        p.mainlineUpdated.items.some((i) =>
          i.checkpoints.some((c) => c.checkpointId === reviewId && c.resolution?.decision === 'APPROVE'),
        ),
      'the resolved review card on the live main line',
    );
  }, 30_000);

  it('the BUDGET card quotes the plan’s paid items on the Task and the main line; approving it is the plan budget, shown with its card', async () => {
    const budget = await pendingCard((c) => c.kind === 'BUDGET', 'the plan’s budget card');
    budgetId = budget.checkpointId;
    const task = await readTask();
    const shots = task.checklist.find((i) => i.output?.kind === 'MEDIA');
    expect(shots?.output).toEqual({ kind: 'MEDIA', media: expect.any(String), count: expect.any(Number) });
    expect(budget.planQuote).toEqual({
      amountMinor: expect.any(Number),
      currency: 'USD',
      totalMinor: expect.any(Number),
      approvedMinor: 0,
      lines: [
        {
          itemId: shots!.itemId,
          media: shots!.output!.media,
          count: shots!.output!.count,
          amountMinor: expect.any(Number),
        },
      ],
    });
    const quote = budget.planQuote!;
    expect(quote.amountMinor).toBeGreaterThan(0);
    expect(quote.totalMinor).toBe(quote.lines[0].amountMinor);
    expect(quote.amountMinor).toBe(quote.totalMinor - quote.approvedMinor);
    expect(task.planBudget).toEqual([]);
    const onLine = cardsItem(await mainline())!.checkpoints.find((c) => c.checkpointId === budgetId);
    expect(onLine).toEqual(budget);

    // The person wants each paid call shown before it runs, then approves the plan's total.
    const manual = await gql<{ setAutonomy: { changed: boolean } }>(SET_AUTONOMY, { taskId, level: 'MANUAL' });
    expect(manual.errors).toBeUndefined();
    const approved = await gql<{ resolveCheckpoint: { changed: boolean; consistencyToken: string } }>(RESOLVE, {
      taskId,
      checkpointId: budgetId,
      decision: 'APPROVE',
    });
    expect(approved.errors).toBeUndefined();
    const after = await readTask(approved.data!.resolveCheckpoint.consistencyToken);
    expect(after.planBudget).toEqual([
      {
        currency: 'USD',
        approvedMinor: quote.amountMinor,
        spentMinor: 0,
        approvals: [
          {
            budgetId: expect.any(String),
            amountMinor: quote.amountMinor,
            approvedBy: expect.any(String),
            approvedAt: expect.any(String),
            checkpointId: budgetId,
          },
        ],
      },
    ]);
  }, 90_000);

  it('a paid call’s APPROVAL card shows its price; an integration token cannot decide it (FORBIDDEN) and nothing is recorded', async () => {
    const approval = await pendingCard((c) => c.kind === 'APPROVAL', 'a paid call’s approval card', 120_000);
    expect(approval.callQuote).toEqual({
      quoteId: expect.any(String),
      amountMinor: expect.any(Number),
      currency: 'USD',
    });
    expect(approval.callQuote!.amountMinor).toBeGreaterThan(0);
    expect(approval.callId).not.toBeNull();
    expect(cardsItem(await mainline())!.checkpoints.find((c) => c.checkpointId === approval.checkpointId)).toEqual(
      approval,
    );

    const account = () => streamEvents(`account-${workspaceId}`);
    const before = await streamEvents(`task-${taskId}`);
    const accountBefore = await account();
    const refused = await Promise.all(
      ['APPROVE', 'REJECT'].map((decision) =>
        gql(RESOLVE, { taskId, checkpointId: approval.checkpointId, decision }, integration.token),
      ),
    );
    expect(refused.map(codeOf)).toEqual(['FORBIDDEN', 'FORBIDDEN']);
    expect(refused.map((r) => r.data ?? null)).toEqual([null, null]);
    expect(await streamEvents(`task-${taskId}`)).toEqual(before);
    expect(await account()).toEqual(accountBefore);
    expect((await readTask()).pendingCheckpoints.map((c) => c.checkpointId)).toContain(approval.checkpointId);

    const approved = await gql<{ resolveCheckpoint: { changed: boolean } }>(RESOLVE, {
      taskId,
      checkpointId: approval.checkpointId,
      decision: 'APPROVE',
    });
    expect(approved.data?.resolveCheckpoint.changed).toBe(true);
    const resolutions = (await streamEvents(`task-${taskId}`)).filter(
      (e) => e.type === 'CheckpointResolved' && e.data.checkpointId === approval.checkpointId,
    );
    expect(resolutions).toEqual([
      expect.objectContaining({
        data: expect.objectContaining({ decision: 'approve' }),
        actor: { kind: 'user', userId: expect.any(String) },
      }),
    ]);
  }, 180_000);

  it('editChecklist: an output that is not ARTIFACT, DECISION or MEDIA with its media and count is VALIDATION_FAILED, and nothing is recorded', async () => {
    // A settled task of its own: nothing else writes to it meanwhile, so "nothing" is exact.
    const quiet = await sendAndSettle(api, api.devToken, 'Please take a note: call the ferry office');
    const before = await streamEvents(`task-${quiet.taskId}`);
    const plan = (output: Record<string, unknown>) => ({
      taskId: quiet.taskId,
      items: [{ itemId: 'shots', title: 'Shots', output }],
    });
    const refused = await Promise.all(
      [
        { kind: 'MEDIA', media: 'video' },
        { kind: 'MEDIA', count: 2 },
        { kind: 'MEDIA', media: 'smell', count: 2 },
        { kind: 'MEDIA', media: 'video', count: 0 },
        { kind: 'MEDIA', media: 'video', count: 21 },
        { kind: 'ARTIFACT', count: 1 },
        { kind: 'DECISION', media: 'image' },
      ].map((output) => gql(EDIT_CHECKLIST, plan(output))),
    );
    expect(refused.map(codeOf)).toEqual(Array(7).fill('VALIDATION_FAILED'));
    expect(refused.map((r) => r.data ?? null)).toEqual(Array(7).fill(null));
    // The refusal names the item's output.
    expect(JSON.stringify(refused[2].errors?.[0]?.extensions)).toContain('output');
    // Not a kind at all: GraphQL's own enum check refuses it before any resolver.
    const unknownKind = await gql(EDIT_CHECKLIST, plan({ kind: 'POEM' }));
    expect(unknownKind.errors?.length).toBeGreaterThan(0);
    expect(await streamEvents(`task-${quiet.taskId}`)).toEqual(before);
  }, 30_000);
});
