import { SEND_MESSAGE, sendAndSettle } from './support/queries';
import { eventually, startStandaloneApi, type RunningApi } from './support/standalone-api';

// `npm start` with the workspace bound (here to the in-memory fake): the offline model writes a
// storyboard with the document tool, the person edits it through the API, and the agent's
// irreversible delete waits for the person's resolveCheckpoint before the artefact goes.

const FAKE_ENTRY = 'test/integration/api/support/standalone-with-fake-workspace.ts';

interface Listed {
  artifacts: {
    edges: Array<{
      node: {
        id: string;
        title: string;
        version: number;
        taskIds: string[];
        versions: Array<{ by: { kind: string } }>;
      };
    }>;
  };
}
const DOCUMENTS = `{ artifacts(kind: DOCUMENT) { edges { node { id title version taskIds versions { by { kind } } } } } }`;
const EVENTS = `query($stream: String!) { events(streamId: $stream, first: 100) { edges { node { type dataJson } } } }`;

describe.each([
  ['the real workspace (npm start)', undefined],
  ['the in-memory fake', FAKE_ENTRY],
] as const)('the offline model writes a storyboard that the person can edit — %s', (_name, entry) => {
  let api: RunningApi;

  beforeAll(async () => {
    api = await startStandaloneApi({}, entry === undefined ? {} : { entry });
  }, 90_000);

  afterAll(async () => {
    await api?.stop();
  });

  it('a storyboard request creates a document bound to its task; the person’s edit is a new version; the agent’s delete waits for approval', async () => {
    const token = api.devToken;
    const { taskId } = await sendAndSettle(api, token, 'make a storyboard for a lighthouse keeper at dawn');
    const listed = await api.gql<Listed>(token, DOCUMENTS);
    const docs = listed.data!.artifacts.edges.map((e) => e.node);
    expect(docs).toEqual([
      expect.objectContaining({
        title: 'Storyboard: a lighthouse keeper at dawn',
        version: 1,
        taskIds: [taskId],
        versions: [{ by: { kind: 'agent' } }],
      }),
    ]);
    const id = docs[0].id;
    const read = await api.gql<{ artifact: { document: { text: string } } }>(
      token,
      'query($id: ID!) { artifact(id: $id) { document { text } } }',
      { id },
    );
    expect(read.data?.artifact.document.text).toMatch(/^# Storyboard: a lighthouse keeper at dawn\n/);

    const edited = await api.gql<{ editDocument: { version: number } }>(
      token,
      'mutation($id: ID!) { editDocument(id: $id, baseVersion: 1, edits: [{ old: "Shot 1", new: "Shot 1 (opening)" }]) { version } }',
      { id },
    );
    expect(edited.data?.editDocument.version).toBe(2);

    // The agent is asked to delete it: artifact.delete is irreversible, so a checkpoint opens.
    const sent = await api.gql(token, SEND_MESSAGE, { text: 'delete the storyboard', taskId });
    expect(sent.errors).toBeUndefined();
    const taskEvents = async () =>
      (
        await api.gql<{ events: { edges: Array<{ node: { type: string; dataJson: string } }> } }>(token, EVENTS, {
          stream: `task-${taskId}`,
        })
      ).data!.events.edges.map((e) => ({
        type: e.node.type,
        data: JSON.parse(e.node.dataJson) as Record<string, string>,
      }));
    const opened = (
      await eventually(taskEvents, (list) => list.some((e) => e.type === 'CheckpointOpened'), 'an approval checkpoint')
    ).find((e) => e.type === 'CheckpointOpened')!;
    expect(opened.data.question).toContain('artifact.delete');
    // Not deleted before the person decides.
    expect((await api.gql<Listed>(token, DOCUMENTS)).data!.artifacts.edges.map((e) => e.node.id)).toEqual([id]);

    const approved = await api.gql(
      token,
      'mutation($t: ID!, $c: ID!) { resolveCheckpoint(taskId: $t, checkpointId: $c, decision: APPROVE) { changed } }',
      { t: taskId, c: opened.data.checkpointId },
    );
    expect(approved.errors).toBeUndefined();
    await eventually(
      () => api.gql<Listed>(token, DOCUMENTS),
      (r) => r.data?.artifacts.edges.length === 0,
      'the storyboard gone from the list',
    );
    const gone = await api.gql<{ artifact: { deleted: boolean } }>(
      token,
      'query($id: ID!) { artifact(id: $id) { deleted } }',
      {
        id,
      },
    );
    expect(gone.data?.artifact.deleted).toBe(true);
  }, 60_000);
});
