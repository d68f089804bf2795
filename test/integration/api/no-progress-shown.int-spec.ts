import { SEND_MESSAGE } from './support/queries';
import { eventually, startStandaloneApi, type RunningApi } from './support/standalone-api';

// Issue 16's loop without progress, shown where the person looks: a model that only rewords the
// plan and stops after every turn is continued by the runtime until the configured number of
// turns without progress, then stopped, and the task says why through the GraphQL API.

const TASK = `query($id: ID!) { task(id: $id) { checklist { itemId title } lastContinuation { decision reason progress turnsWithoutProgress } } }`;

describe('a loop without progress through the GraphQL API of a standalone process', () => {
  let api: RunningApi;

  beforeAll(async () => {
    api = await startStandaloneApi({}, { entry: 'test/integration/api/support/standalone-with-rewording-model.ts' });
  }, 90_000);
  afterAll(async () => {
    await api?.stop();
  });

  it('the model only rewords the plan: the runtime stops after the configured turns, and the task shows the decision with its reason', async () => {
    const token = api.devToken;
    const sent = await api.gql<{ sendMessage: { messageId: string } }>(token, SEND_MESSAGE, {
      text: 'Please make a short video of a tram crossing a bridge in the fog',
    });
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
    type Read = {
      task: {
        checklist: Array<{ itemId: string; title: string }>;
        lastContinuation: { decision: string; reason: string; progress: string[]; turnsWithoutProgress: number } | null;
      } | null;
    };
    const stopped = await eventually(
      () => api.gql<Read>(token, TASK, { id: taskId }),
      (r) => r.data?.task?.lastContinuation?.decision === 'stop',
      'the runtime stopped going on',
      60_000,
    );
    expect(stopped.data!.task!.lastContinuation).toEqual({
      decision: 'stop',
      reason: 'no_progress',
      progress: [],
      turnsWithoutProgress: 2,
    });
    // The plan was reworded three times (one person turn, two of the runtime's), never worked on.
    expect(stopped.data!.task!.checklist.map((i) => i.title)).toEqual(['Script (take 3)', 'Shots (take 3)']);
    const turns = await api.gql<{ events: { edges: Array<{ node: { type: string; dataJson: string } }> } }>(
      token,
      `query($stream: String!) { events(streamId: $stream, first: 100) { edges { node { type dataJson } } } }`,
      { stream: `task-${taskId}` },
    );
    const reasons = turns
      .data!.events.edges.filter((e) => e.node.type === 'TurnOpened')
      .map((e) => (JSON.parse(e.node.dataJson) as { reason: string }).reason);
    expect(reasons).toEqual(['message', 'continuation', 'continuation']);
  }, 120_000);
});
