import { startStandaloneApi, type RunningApi } from '../api/support/standalone-api';
import { liveClient, subscribe } from './support/live-client';

interface Routing {
  outcome: string;
  taskId: string | null;
}
interface MainPayload {
  mainlineUpdated: {
    snapshot: boolean;
    consistencyToken: string;
    items: Array<{ id: string; routing: Routing | null }>;
  };
}
interface TaskState {
  id: string;
  status: string;
  counts: { turns: number; steps: number };
  activeTurnSummary: { turnId: string; status: string; steps: number } | null;
}
interface TaskPayload {
  taskUpdated: { consistencyToken: string; task: TaskState };
}

const MAINLINE = `subscription { mainlineUpdated(first: 5) { snapshot consistencyToken items { id routing { outcome taskId } } } }`;
const TASK_FIELDS = 'id status counts { turns steps } activeTurnSummary { turnId status steps }';
const TASK_UPDATED = `subscription($id: ID!) { taskUpdated(taskId: $id) { consistencyToken task { ${TASK_FIELDS} } } }`;
const TASK = `query($id: ID!, $token: String) { task(id: $id, consistentWith: $token) { ${TASK_FIELDS} } }`;
const MESSAGE = `query($id: ID!, $token: String) { message(id: $id, consistentWith: $token) { id routing { outcome taskId } } }`;
const SEND = `mutation($text: String!, $taskId: ID) { sendMessage(text: $text, taskId: $taskId) { messageId } }`;
const STOP = `mutation($id: ID!) { stopTask(taskId: $id, reason: "enough") { changed } }`;

const itemOf = (p: MainPayload, id: string) => p.mainlineUpdated.items.find((i) => i.id === id);
const stateOf = (p: TaskPayload) => p.taskUpdated.task;

// The Must-show walk of the live API: a real graphql-ws client against the standalone app as
// `npm start` runs it (a child process), the dev token, the offline model.
describe('GraphQL subscriptions follow the read model', () => {
  let api: RunningApi;

  beforeAll(async () => {
    api = await startStandaloneApi();
  }, 90_000);

  afterAll(async () => {
    await api?.stop();
  });

  /** A query gated on the payload's token answers at once with a state at least as new. */
  async function readWithToken<T>(query: string, variables: Record<string, unknown>): Promise<T> {
    const started = Date.now();
    const result = await api.gql<T>(api.devToken, query, variables);
    expect({ errors: result.errors, fast: Date.now() - started < 1_000 }).toEqual({ errors: undefined, fast: true });
    return result.data as T;
  }

  it('shows the routing outcome on the main line, then the task’s current state, its turn’s progress and its stop, never ahead of the read model', async () => {
    const client = liveClient(api, api.devToken);
    try {
      const main = subscribe<MainPayload>(client, MAINLINE);
      await main.waitFor((p) => p.mainlineUpdated.snapshot, 'the main-line snapshot');
      expect(main.payloads[0].mainlineUpdated).toMatchObject({ snapshot: true, items: [] });

      const sent = await api.gql<{ sendMessage: { messageId: string } }>(api.devToken, SEND, {
        text: 'Please take a note: buy oat milk',
      });
      const messageId = sent.data!.sendMessage.messageId;
      const routedAt = await main.waitFor((p) => itemOf(p, messageId)?.routing?.taskId != null, 'the routing outcome');
      const routing = itemOf(main.payloads[routedAt], messageId)!.routing!;
      expect(routing.outcome).toBe('NEW');
      const taskId = routing.taskId!;
      // Each state of the message once, in order: unrouted (unless the router was quicker than the read), then routed.
      const states = main.payloads.filter((p) => itemOf(p, messageId) !== undefined);
      const outcomes = states.map((p) => itemOf(p, messageId)!.routing?.outcome ?? null);
      expect([['NEW'], [null, 'NEW']]).toContainEqual(outcomes);
      for (const payload of states) {
        const read = await readWithToken<{ message: { routing: Routing | null } }>(MESSAGE, {
          id: messageId,
          token: payload.mainlineUpdated.consistencyToken,
        });
        if (itemOf(payload, messageId)!.routing !== null) expect(read.message.routing).toEqual(routing);
      }

      const task = subscribe<TaskPayload>(client, TASK_UPDATED, { id: taskId });
      await task.waitFor(() => true, 'the task’s current state');
      const first = stateOf(task.payloads[0]);
      expect(first.id).toBe(taskId);

      // Progress after the first state, for sure: once the first turn has ended, a second message
      // to the task opens a new turn (sent while the first runs, that turn's next step claims it).
      await task.waitFor(
        (p) => stateOf(p).counts.turns >= 1 && stateOf(p).activeTurnSummary === null,
        'the first turn to end',
        0,
        60_000,
      );
      await api.gql(api.devToken, SEND, { text: 'Also note: buy bread', taskId });
      // 60 s: on two loaded cores (CI runs the suites in parallel) the turn itself took over 20 s once.
      const doneAt = await task
        .waitFor(
          (p) =>
            stateOf(p).counts.turns >= 2 &&
            stateOf(p).activeTurnSummary === null &&
            stateOf(p).counts.steps > first.counts.steps,
          'the second turn to commit its steps and end',
          1,
          60_000,
        )
        .catch(async (error: Error) => {
          // Says which side was behind: the turn (read model not there either) or the subscription.
          const readModel = await api.gql<{ task: TaskState }>(api.devToken, TASK, { id: taskId });
          const last = task.payloads[task.payloads.length - 1];
          throw new Error(
            `${error.message}; last pushed ${JSON.stringify(last && stateOf(last))}, read model ${JSON.stringify(readModel.data?.task)}`,
          );
        });
      // The turn's progress came as it happened, not only as its end.
      const inProgress = task.payloads.slice(1, doneAt).filter((p) => stateOf(p).activeTurnSummary !== null);
      expect(inProgress.length).toBeGreaterThan(0);

      await api.gql(api.devToken, STOP, { id: taskId });
      const stoppedAt = await task.waitFor((p) => stateOf(p).status === 'STOPPED', 'the stop', doneAt);
      expect(stoppedAt).toBeGreaterThan(doneAt);

      // Never an older state after a newer one, never the same state twice.
      const tokens = task.payloads.map((p) => p.taskUpdated.consistencyToken);
      expect(new Set(tokens).size).toBe(tokens.length);
      for (let i = 1; i < task.payloads.length; i += 1) {
        const [before, after] = [stateOf(task.payloads[i - 1]), stateOf(task.payloads[i])];
        expect(after.counts.turns).toBeGreaterThanOrEqual(before.counts.turns);
        expect(after.counts.steps).toBeGreaterThanOrEqual(before.counts.steps);
      }
      // Each state was in the read model when it was sent: its token's query is at least as new.
      for (const payload of task.payloads) {
        const sentState = stateOf(payload);
        const read = await readWithToken<{ task: TaskState }>(TASK, {
          id: taskId,
          token: payload.taskUpdated.consistencyToken,
        });
        expect(read.task.counts.turns).toBeGreaterThanOrEqual(sentState.counts.turns);
        expect(read.task.counts.steps).toBeGreaterThanOrEqual(sentState.counts.steps);
        if (sentState.status === 'STOPPED') expect(read.task.status).toBe('STOPPED');
      }

      // A new subscription to the settled task gets its current state at once, with no change needed.
      const again = subscribe<TaskPayload>(client, TASK_UPDATED, { id: taskId });
      await again.waitFor(() => true, 'the current state of the stopped task', 0, 3_000);
      expect(stateOf(again.payloads[0])).toEqual(stateOf(task.payloads[stoppedAt]));
    } finally {
      await client.dispose();
    }
  }, 120_000);
});
