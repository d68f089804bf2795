import { createToken, startStandaloneApi, type GraphqlResponse, type RunningApi } from './support/standalone-api';
import { SEND_MESSAGE, sendAndSettle } from './support/queries';

const codeOf = (r: GraphqlResponse<unknown>) => r.errors?.[0]?.extensions?.code;

// Workspace A's work is invisible and untouchable with a token of workspace B: every id of A
// behaves for B exactly like an id that does not exist.
describe('API isolation between workspaces', () => {
  let api: RunningApi;
  let a: { id: string; token: string };
  let b: { id: string; token: string };
  let work: Awaited<ReturnType<typeof sendAndSettle>>;

  beforeAll(async () => {
    api = await startStandaloneApi();
    a = await createToken(api, 'ws_a', 'alice');
    b = await createToken(api, 'ws_b', 'bob');
    work = await sendAndSettle(api, a.token, 'Please remember: the launch is on Friday');
  }, 120_000);

  afterAll(async () => {
    await api?.stop();
  });

  it('a token of workspace B reads none of workspace A’s messages, tasks, turns, inbox items or events', async () => {
    const { messageId, taskId, turnId } = work;
    const seen = await api.gql<Record<string, unknown>>(
      b.token,
      `query($task: ID!, $turn: ID!, $msg: ID!) {
        task(id: $task) { id inbox { edges { node { id } } } }
        turn(id: $turn) { id ledger { edges { node { callId } } } }
        message(id: $msg) { id }
        tasks(first: 100) { edges { node { id } } }
        mainline(first: 100) { edges { node { id } } }
      }`,
      { task: taskId, turn: turnId, msg: messageId },
    );
    expect(seen.errors).toBeUndefined();
    expect(seen.data).toEqual({ task: null, turn: null, message: null, tasks: { edges: [] }, mainline: { edges: [] } });

    for (const streamId of [`task-${taskId}`, `turn-${turnId}`, 'main-ws_a.alice']) {
      const events = await api.gql<{ events: { edges: unknown[] } }>(
        b.token,
        'query($s: String!) { events(streamId: $s) { edges { node { type } } } }',
        { s: streamId },
      );
      expect({ streamId, edges: events.data?.events.edges }).toEqual({ streamId, edges: [] });
    }
    // Workspace A itself still sees all of it.
    const own = await api.gql<{ task: { id: string } | null; events: { edges: unknown[] } }>(
      a.token,
      'query($id: ID!, $s: String!) { task(id: $id) { id } events(streamId: $s) { edges { cursor } } }',
      { id: taskId, s: `task-${taskId}` },
    );
    expect(own.data?.task?.id).toBe(taskId);
    expect(own.data?.events.edges.length).toBeGreaterThan(0);
  });

  it('a token of workspace B changes nothing of workspace A: every attempt is NOT_FOUND and nothing is appended', async () => {
    const { messageId, taskId } = work;
    const before = await api.headPosition();
    const attempts: Array<[string, string, Record<string, unknown>]> = [
      ['stopTask', 'mutation($id: ID!) { stopTask(taskId: $id) { taskId } }', { id: taskId }],
      ['pauseTask', 'mutation($id: ID!) { pauseTask(taskId: $id) { taskId } }', { id: taskId }],
      ['resumeTask', 'mutation($id: ID!) { resumeTask(taskId: $id) { taskId } }', { id: taskId }],
      ['archiveTask', 'mutation($id: ID!) { archiveTask(taskId: $id) { taskId } }', { id: taskId }],
      ['withdrawMessage', 'mutation($id: ID!) { withdrawMessage(messageId: $id) { taskId } }', { id: messageId }],
      [
        'replaceMessage',
        'mutation($id: ID!) { replaceMessage(messageId: $id, text: "hijacked") { taskId } }',
        { id: messageId },
      ],
      ['sendMessage to A’s task', SEND_MESSAGE, { text: 'deliver this into A', taskId }],
    ];
    for (const [name, query, variables] of attempts) {
      const result = await api.gql<unknown>(b.token, query, variables);
      expect({ name, data: result.data ?? null, code: codeOf(result) }).toEqual({
        name,
        data: null,
        code: 'NOT_FOUND',
      });
    }
    // A's consistency token names A's streams: B cannot wait on them either.
    const borrowed = await api.gql<unknown>(
      b.token,
      'query($t: String) { tasks(consistentWith: $t) { edges { cursor } } }',
      {
        t: work.consistencyToken,
      },
    );
    expect(codeOf(borrowed)).toBe('INVALID_CONSISTENCY_TOKEN');

    expect(await api.headPosition()).toBe(before);
    const status = await api.gql<{ task: { status: string } }>(
      a.token,
      'query($id: ID!) { task(id: $id) { status } }',
      {
        id: taskId,
      },
    );
    expect(status.data?.task.status).not.toBe('STOPPED');
  });

  it('a revoked token is refused at once, on the very next request', async () => {
    const c = await createToken(api, 'ws_a', 'carol');
    const me = await api.gql<{ me: { workspaceId: string; userId: string } }>(c.token, '{ me { workspaceId userId } }');
    expect(me.data?.me).toEqual({ workspaceId: 'ws_a', userId: 'carol' });

    const revoked = await api.tokens(['revoke', c.id]);
    expect(JSON.parse(revoked.stdout)).toEqual({ id: c.id, outcome: 'revoked' });

    const refused = await api.gql<unknown>(c.token, '{ me { userId } }');
    expect({ status: refused.status, code: codeOf(refused), data: refused.data ?? null }).toEqual({
      status: 401,
      code: 'UNAUTHENTICATED',
      data: null,
    });
    const listed = await api.tokens(['list', '--workspace', 'ws_a', '--all']);
    const rows = listed.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: string; revokedAt: string | null });
    expect(rows.find((r) => r.id === c.id)?.revokedAt).toEqual(expect.any(String));
    expect(rows.find((r) => r.id === a.id)?.revokedAt).toBeNull();
    // Three CLI processes from the sources (create, revoke, list): ~2.5 s each on a loaded machine.
  }, 30_000);
});
