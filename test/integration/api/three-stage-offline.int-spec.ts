import { SEND_MESSAGE } from './support/queries';
import { eventually, startStandaloneApi, type RunningApi } from './support/standalone-api';

// Article §8's three-stage brief on `npm start` (the offline model, simulated generation),
// through the public GraphQL API only: the person sends one brief and answers the two cards the
// plan needs, shown together after the storyboard: its review, and the plan's budget (the three
// shots quoted as one total). Every other turn comes from the runtime's decision, and the shots
// run within the approved budget with no card of their own.

const BRIEF =
  'Please make a short video for the riverside bakery: a baker at dawn, fresh loaves on the counter, the first customers stepping in from the rain';

interface Card {
  checkpointId: string;
  kind: string;
  itemId: string | null;
  callId: string | null;
}
interface TaskRead {
  task: {
    checklist: Array<{ itemId: string; status: string; needsConfirmation: boolean }>;
    pendingCheckpoints: Card[];
    checkpoints: Card[];
    lastContinuation: { decision: string; reason: string } | null;
  } | null;
}
const TASK = `query($id: ID!) { task(id: $id) {
  checklist { itemId status needsConfirmation }
  pendingCheckpoints { checkpointId kind itemId callId }
  checkpoints { checkpointId kind itemId callId }
  lastContinuation { decision reason } } }`;
const RESOLVE = `mutation($taskId: ID!, $checkpointId: ID!) {
  resolveCheckpoint(taskId: $taskId, checkpointId: $checkpointId, decision: APPROVE) { changed } }`;
const EVENTS = `query($stream: String!) { events(streamId: $stream, first: 100) { edges { node { type dataJson } } } }`;

describe('the three-stage brief with the offline model through the GraphQL API of a standalone process', () => {
  let api: RunningApi;

  beforeAll(async () => {
    api = await startStandaloneApi({});
  }, 90_000);
  afterAll(async () => {
    await api?.stop();
  });

  it('script, storyboard (its review and the plan budget by card), shots within the plan with no card each: finished by the runtime, no "continue", no unnecessary confirmation, no duplicate generation', async () => {
    const token = api.devToken;
    const sent = await api.gql<{ sendMessage: { messageId: string } }>(token, SEND_MESSAGE, { text: BRIEF });
    const messageId = sent.data!.sendMessage.messageId;
    const routed = await eventually(
      () =>
        api.gql<{ message: { routing: { taskId: string | null } | null } | null }>(
          token,
          'query($id: ID!) { message(id: $id) { routing { taskId } } }',
          { id: messageId },
        ),
      (r) => r.data?.message?.routing?.taskId != null,
      'routing',
    );
    const taskId = routed.data!.message!.routing!.taskId!;
    const read = () => api.gql<TaskRead>(token, TASK, { id: taskId });

    const atReview = await eventually(
      read,
      (r) => r.data?.task?.pendingCheckpoints.some((c) => c.kind === 'REVIEW') === true,
      'the storyboard review card',
      60_000,
    );
    const review = atReview.data!.task!.pendingCheckpoints.find((c) => c.kind === 'REVIEW')!;
    expect(review.itemId).toBe('storyboard');
    expect(atReview.data!.task!.checklist.map((i) => [i.itemId, i.status])).toEqual([
      ['script', 'DONE'],
      ['storyboard', 'DONE'],
      ['shots', 'PENDING'],
    ]);
    // The plan's budget card is shown with the review: three videos quoted as one total.
    const budgetCard = atReview.data!.task!.pendingCheckpoints.find((c) => c.kind === 'BUDGET');
    expect(budgetCard).toBeDefined();
    for (const card of [review, budgetCard!]) {
      const approved = await api.gql<{ resolveCheckpoint: { changed: boolean } }>(token, RESOLVE, {
        taskId,
        checkpointId: card.checkpointId,
      });
      expect(approved.data?.resolveCheckpoint.changed).toBe(true);
    }
    const again = await api.gql(token, RESOLVE, { taskId, checkpointId: review.checkpointId });
    expect(again.errors?.[0]?.extensions?.code).toBe('CHECKPOINT_ALREADY_RESOLVED');

    const timeline = async () => {
      const list = await api.gql<{ events: { edges: Array<{ node: { type: string; dataJson: string } }> } }>(
        token,
        EVENTS,
        { stream: `task-${taskId}` },
      );
      return list.data?.events.edges.map((e) => `${e.node.type} ${e.node.dataJson.slice(0, 160)}`).join('\n');
    };
    const finished = await eventually(
      read,
      (r) => r.data?.task?.lastContinuation?.reason === 'checklist_complete',
      'the checklist complete',
      // Three simulated videos, one after another (one call per step).
      240_000,
    ).catch(async (error: unknown) => {
      // What the task did instead, so a failure says where it stood.
      const jobs = await api.gql(
        token,
        `query($taskId: ID!) { generationJobs(taskId: $taskId) { callId phase progress } }`,
        {
          taskId,
        },
      );
      const me = await api.gql<{ me: { workspaceId: string } }>(token, '{ me { workspaceId } }');
      const account = await api.gql(token, EVENTS, { stream: `account-${me.data?.me.workspaceId}` });
      throw new Error(
        `${JSON.stringify(account).slice(0, 3000)}\n${String(error)}\n${JSON.stringify((await read()).data)}\n${JSON.stringify(jobs)}\n${await timeline()}`,
      );
    });
    expect(finished.data!.task!.lastContinuation).toEqual({ decision: 'finish', reason: 'checklist_complete' });
    expect(finished.data!.task!.checklist.every((i) => i.status === 'DONE')).toBe(true);

    const events = await api.gql<{ events: { edges: Array<{ node: { type: string; dataJson: string } }> } }>(
      token,
      EVENTS,
      { stream: `task-${taskId}` },
    );
    const nodes = events.data!.events.edges.map((e) => ({ type: e.node.type, data: JSON.parse(e.node.dataJson) }));
    const reasons = nodes.filter((n) => n.type === 'TurnOpened').map((n) => n.data.reason as string);
    expect(reasons[0]).toBe('message');
    expect(reasons.slice(1).every((r) => r === 'continuation' || r === 'approval')).toBe(true);
    const cards = nodes
      .filter((n) => n.type === 'CheckpointOpened')
      .map((n) => n.data as { kind: string; callId?: string });
    // The counters: "continue" prompts, confirmations for something already approved or within
    // the budget and autonomy level (a paid shot's own card, a card asked twice), and
    // generations of one call made twice.
    const continuePrompts = nodes.filter((n) => n.type === 'MessageDeliveredToInbox').length - 1;
    expect(cards.map((c) => c.kind)).toEqual(['review', 'budget']);
    const unnecessaryConfirmations = cards.filter((c) => c.kind === 'approval').length;
    const jobs = await api.gql<{ generationJobs: Array<{ callId: string }> }>(
      token,
      `query($taskId: ID!) { generationJobs(taskId: $taskId) { callId } }`,
      { taskId },
    );
    const jobCalls = jobs.data?.generationJobs.map((j) => j.callId) ?? [];
    const duplicateGenerations = jobCalls.length - new Set(jobCalls).size;
    expect(jobCalls.length).toBe(3);
    expect({ continuePrompts, unnecessaryConfirmations, duplicateGenerations }).toEqual({
      continuePrompts: 0,
      unnecessaryConfirmations: 0,
      duplicateGenerations: 0,
    });
  }, 360_000);
});
