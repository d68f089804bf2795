import { eventually, startStandaloneApi, type RunningApi } from './support/standalone-api';

interface SendResult {
  sendMessage: { messageId: string; created: boolean; language: string; consistencyToken: string };
}
interface MessageResult {
  message: {
    id: string;
    text: string;
    language: string;
    kind: string;
    routing: { outcome: string; taskId: string | null; method: string } | null;
  } | null;
}
interface TaskResult {
  task: {
    id: string;
    goal: string;
    kind: string;
    status: string;
    language: string;
    originMessageId: string;
    inbox: { edges: Array<{ cursor: string; node: { id: string; status: string; text: string } }> };
    turns: { edges: Array<{ node: { id: string; status: string } }> };
  } | null;
}
interface TurnResult {
  turn: {
    id: string;
    taskId: string;
    status: string;
    steps: { edges: Array<{ node: { step: number; reply: string } }> };
    ledger: {
      edges: Array<{
        node: { callId: string; tool: string; status: string; outcome: string | null; resultJson: string | null };
      }>;
      pageInfo: { hasNextPage: boolean; endCursor: string | null };
    };
  } | null;
}
interface StopResult {
  stopTask: { taskId: string; changed: boolean; cancelledTurnId: string | null; consistencyToken: string };
}

const SEND = `mutation Send($text: String!, $client: String) {
  sendMessage(text: $text, clientMessageId: $client) { messageId created language consistencyToken }
}`;
const MESSAGE = `query Message($id: ID!, $token: String) {
  message(id: $id, consistentWith: $token) { id text language kind routing { outcome taskId method } }
}`;
const TASK = `query Task($id: ID!, $token: String) {
  task(id: $id, consistentWith: $token) {
    id goal kind status language originMessageId
    inbox(first: 10) { edges { cursor node { id status text } } }
    turns(first: 10) { edges { node { id status } } }
  }
}`;
const TURN = `query Turn($id: ID!) {
  turn(id: $id) {
    id taskId status
    steps(first: 20) { edges { node { step reply } } }
    ledger(first: 20) { edges { node { callId tool status outcome resultJson } } pageInfo { hasNextPage endCursor } }
  }
}`;
const STOP = `mutation Stop($id: ID!) { stopTask(taskId: $id, reason: "done here") { taskId changed cancelledTurnId consistencyToken } }`;

// The Must-show walk through the public API of the running standalone app (a child process,
// as `npm start` runs it): fetch over HTTP, the dev token from the logs, the offline model.
describe('API end to end against the running standalone app', () => {
  let api: RunningApi;

  beforeAll(async () => {
    api = await startStandaloneApi();
  }, 90_000);

  afterAll(async () => {
    await api?.stop();
  });

  it('sends a message, reads it with its consistency token until routed, sees the task’s turn complete a tool call, and stops the task', async () => {
    const token = api.devToken;
    const sent = await api.gql<SendResult>(token, SEND, { text: 'Please take a note: buy oat milk', client: 'e2e-1' });
    expect(sent.errors).toBeUndefined();
    const { messageId, consistencyToken } = sent.data!.sendMessage;
    expect(sent.data!.sendMessage).toMatchObject({ created: true, language: 'en' });

    // A retry with the same clientMessageId returns the first result, writing nothing new.
    const retried = await api.gql<SendResult>(token, SEND, {
      text: 'Please take a note: buy oat milk',
      client: 'e2e-1',
    });
    expect(retried.data!.sendMessage).toMatchObject({ messageId, created: false });

    // With the token the read waits for the read model: the message is there on the first read.
    const read = await api.gql<MessageResult>(token, MESSAGE, { id: messageId, token: consistencyToken });
    expect(read.errors).toBeUndefined();
    expect(read.data!.message).toMatchObject({
      id: messageId,
      text: 'Please take a note: buy oat milk',
      kind: 'MESSAGE',
    });

    const routed = await eventually(
      () => api.gql<MessageResult>(token, MESSAGE, { id: messageId }),
      (r) => r.data?.message?.routing?.taskId != null,
      'the message to show its routing outcome and task id',
    );
    const routing = routed.data!.message!.routing!;
    expect(routing).toMatchObject({ outcome: 'NEW', method: 'SEMANTIC' });
    const taskId = routing.taskId!;

    const task = await eventually(
      () => api.gql<TaskResult>(token, TASK, { id: taskId }),
      (r) => (r.data?.task?.turns.edges.length ?? 0) > 0,
      'the task with its first turn',
    );
    expect(task.data!.task).toMatchObject({
      id: taskId,
      kind: 'PERSISTENT',
      language: 'en',
      originMessageId: messageId,
    });
    expect(task.data!.task!.inbox.edges.map((e) => e.node.id)).toEqual([messageId]);
    const turnId = task.data!.task!.turns.edges[0].node.id;

    const turn = await eventually(
      () => api.gql<TurnResult>(token, TURN, { id: turnId }),
      (r) => r.data?.turn?.ledger.edges.some((e) => e.node.status === 'COMPLETED') === true,
      'a completed ledger entry on the turn',
    );
    const completed = turn.data!.turn!.ledger.edges.find((e) => e.node.status === 'COMPLETED')!.node;
    expect(completed).toMatchObject({ outcome: 'OK', tool: expect.stringMatching(/note/) });
    expect(completed.callId.startsWith(`${turnId}:`)).toBe(true);
    expect(turn.data!.turn!.taskId).toBe(taskId);
    expect(turn.data!.turn!.steps.edges.length).toBeGreaterThan(0);

    const stopped = await api.gql<StopResult>(token, STOP, { id: taskId });
    expect(stopped.errors).toBeUndefined();
    expect(stopped.data!.stopTask).toMatchObject({ taskId, changed: true });
    const after = await api.gql<TaskResult>(token, TASK, {
      id: taskId,
      token: stopped.data!.stopTask.consistencyToken,
    });
    expect(after.data!.task!.status).toBe('STOPPED');
  }, 120_000);
});
