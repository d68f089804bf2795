import { startStandaloneApi, type RunningApi } from './support/standalone-api';

// `npm start` until the workspace module is composed in: the schema is the same, and artefact
// operations refuse with a typed code instead of crashing the app or answering an empty list
// that would read as "you have no artefacts".
describe('artefact operations in an app without the shared workspace bound', () => {
  let api: RunningApi;

  beforeAll(async () => {
    api = await startStandaloneApi();
  }, 90_000);

  afterAll(async () => {
    await api?.stop();
  });

  it('answer WORKSPACE_UNAVAILABLE in GraphQL and 503 on /media, and the rest of the API still works', async () => {
    const id = '00000000-0000-4000-8000-000000000000';
    const query = await api.gql(api.devToken, 'query($id: ID!) { artifact(id: $id) { id } }', { id });
    const list = await api.gql(api.devToken, '{ artifacts { edges { cursor } } }');
    const create = await api.gql(
      api.devToken,
      'mutation { createArtifact(kind: DOCUMENT, title: "x", text: "y") { artifactId } }',
    );
    expect([query, list, create].map((r) => r.errors?.[0]?.extensions?.code)).toEqual([
      'WORKSPACE_UNAVAILABLE',
      'WORKSPACE_UNAVAILABLE',
      'WORKSPACE_UNAVAILABLE',
    ]);
    const media = await fetch(`${api.url}/media/${id}`, { headers: { authorization: `Bearer ${api.devToken}` } });
    expect({ status: media.status, body: await media.json() }).toEqual({
      status: 503,
      body: { error: expect.objectContaining({ code: 'WORKSPACE_UNAVAILABLE' }) },
    });
    const me = await api.gql<{ me: { userId: string } }>(api.devToken, '{ me { userId } }');
    expect(me.data?.me.userId).toBe('dev');
  });
});
