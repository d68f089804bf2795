import { createToken, eventually, startStandaloneApi, type RunningApi } from './support/standalone-api';
import { SEND_MESSAGE, sendAndSettle } from './support/queries';

const RESOLVE = `mutation Resolve($taskId: ID!, $checkpointId: ID!, $decision: CheckpointDecision!, $note: String) {
  resolveCheckpoint(taskId: $taskId, checkpointId: $checkpointId, decision: $decision, note: $note) {
    taskId checkpointId changed consistencyToken
  }
}`;
const TASK_EVENTS = `query($stream: String!) {
  events(streamId: $stream, first: 100) { edges { node { type dataJson actorJson } } }
}`;

interface Resolved {
  resolveCheckpoint: { taskId: string; checkpointId: string; changed: boolean; consistencyToken: string };
}
interface Events {
  events: { edges: Array<{ node: { type: string; dataJson: string; actorJson: string } }> };
}

// The person approves an irreversible call through the API: until this mutation existed no
// checkpoint could be resolved by anyone. The offline model's delete of a note is the call.
describe('resolveCheckpoint(taskId, checkpointId, decision, note) for approval checkpoints', () => {
  let api: RunningApi;
  let other: { token: string };
  let taskId: string;
  let checkpointId: string;

  const events = async (token: string) => {
    const read = await api.gql<Events>(token, TASK_EVENTS, { stream: `task-${taskId}` });
    return (read.data?.events.edges ?? []).map((e) => ({
      type: e.node.type,
      data: JSON.parse(e.node.dataJson) as Record<string, unknown>,
      actor: JSON.parse(e.node.actorJson) as Record<string, unknown>,
    }));
  };
  const resolve = (token: string, variables: Record<string, unknown>) => api.gql<Resolved>(token, RESOLVE, variables);

  beforeAll(async () => {
    api = await startStandaloneApi();
    other = await createToken(api, 'ws_other', 'mallory');
    ({ taskId } = await sendAndSettle(api, api.devToken, 'Please take a note: buy oat milk'));
    const sent = await api.gql(api.devToken, SEND_MESSAGE, { text: 'delete the note 42', taskId });
    expect(sent.errors).toBeUndefined();
    const opened = await eventually(
      () => events(api.devToken),
      (list) => list.some((e) => e.type === 'CheckpointOpened'),
      'an approval checkpoint for the delete',
    );
    checkpointId = String(opened.find((e) => e.type === 'CheckpointOpened')!.data.checkpointId);
  }, 120_000);

  afterAll(async () => {
    await api?.stop();
  });

  it('refuses bad input, unknown ids and another workspace’s task alike, and records nothing', async () => {
    const before = await events(api.devToken);
    const invalid = await resolve(api.devToken, { taskId, checkpointId, decision: 'ANSWER' });
    const unknownCheckpoint = await resolve(api.devToken, {
      taskId,
      checkpointId: '00000000-0000-4000-8000-000000000000',
      decision: 'APPROVE',
    });
    const unknownTask = await resolve(api.devToken, {
      taskId: '00000000-0000-4000-8000-000000000001',
      checkpointId,
      decision: 'APPROVE',
    });
    const foreign = await resolve(other.token, { taskId, checkpointId, decision: 'APPROVE' });
    expect(
      [invalid, unknownCheckpoint, unknownTask, foreign].map((r) => ({
        code: r.errors?.[0]?.extensions?.code,
        data: r.data ?? null,
      })),
    ).toEqual([
      { code: 'VALIDATION_FAILED', data: null },
      { code: 'NOT_FOUND', data: null },
      { code: 'NOT_FOUND', data: null },
      { code: 'NOT_FOUND', data: null },
    ]);
    expect(await events(api.devToken)).toEqual(before);
  });

  it('records the person’s approval once, resumes the waiting turn, and refuses a second approval and a different later decision', async () => {
    const approved = await resolve(api.devToken, { taskId, checkpointId, decision: 'APPROVE', note: 'go ahead' });
    expect(approved.errors).toBeUndefined();
    expect(approved.data?.resolveCheckpoint).toMatchObject({ taskId, checkpointId, changed: true });
    expect(approved.data?.resolveCheckpoint.consistencyToken).toMatch(/^[A-Za-z0-9_-]+$/);

    const retry = await resolve(api.devToken, { taskId, checkpointId, decision: 'APPROVE', note: 'go ahead' });
    // A card resolves once: an approval repeated is refused, never consumed twice.
    expect(retry.errors?.[0]?.extensions?.code).toBe('CHECKPOINT_ALREADY_RESOLVED');
    const contrary = await resolve(api.devToken, { taskId, checkpointId, decision: 'REJECT' });
    expect(contrary.errors?.[0]?.extensions?.code).toBe('CHECKPOINT_ALREADY_RESOLVED');

    const list = await events(api.devToken);
    const resolutions = list.filter((e) => e.type === 'CheckpointResolved');
    expect(resolutions).toEqual([
      {
        type: 'CheckpointResolved',
        data: expect.objectContaining({ checkpointId, decision: 'approve', resolvedBy: 'dev', answer: 'go ahead' }),
        actor: { kind: 'user', userId: 'dev' },
      },
    ]);
    // The approval authorized the call: the turn ran it (the runtime's irreversible path).
    const callId = String(list.find((e) => e.type === 'CheckpointOpened')!.data.callId);
    const turnId = callId.split(':')[0];
    await eventually(
      () => api.gql<Events>(api.devToken, TASK_EVENTS, { stream: `turn-${turnId}` }),
      (r) =>
        r.data?.events.edges.some(
          (e) =>
            e.node.type === 'ToolCallStarted' && (JSON.parse(e.node.dataJson) as { callId: string }).callId === callId,
        ) === true,
      'the approved call started',
    );
  });
});
