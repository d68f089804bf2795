import { liveClient, subscribe, type LiveSubscription } from '../live/support/live-client';
import { createToken, startStandaloneApi, type GraphqlResponse, type RunningApi } from './support/standalone-api';

// The API slice of the shared workspace (issue 14 §7) over real HTTP and graphql-ws, with the
// workspace's ports bound to the in-memory fake (@lomo/workspace/testing): the person's edits
// carry a base version, refusals are typed with the current version, deletion asks first, and
// another workspace's artefact ids are NOT_FOUND everywhere.

const FAKE_ENTRY = 'test/integration/api/support/standalone-with-fake-workspace.ts';
const MEDIA_MAX = 4096;

const ARTIFACT_FIELDS = `id kind title version deleted taskIds mediaUrl
  deletionRequested { requestId }
  versions { version change by { kind userId } contentType bytes mediaUrl }
  document { version text }
  flow { version structureVersion nodes { nodeId kind version paramsJson } edges { edgeId from to } }`;
const ARTIFACT = `query($id: ID!) { artifact(id: $id) { ${ARTIFACT_FIELDS} } }`;
const ARTIFACTS = `query($kind: ArtifactKind, $first: Int, $after: String) {
  artifacts(kind: $kind, first: $first, after: $after) {
    edges { cursor node { id title version } } pageInfo { hasNextPage endCursor }
  }
}`;
const CREATE = `mutation($kind: NewArtifactKind!, $title: String!, $text: String, $nodes: [FlowNodeInput!], $edges: [FlowEdgeInput!], $client: String) {
  createArtifact(kind: $kind, title: $title, text: $text, nodes: $nodes, edges: $edges, clientArtifactId: $client) {
    artifactId version consistencyToken
  }
}`;
const EDIT_DOCUMENT = `mutation($id: ID!, $base: Int!, $content: String, $edits: [SnippetEditInput!]) {
  editDocument(id: $id, baseVersion: $base, content: $content, edits: $edits) { artifactId version consistencyToken }
}`;
const EDIT_FLOW = `mutation($id: ID!, $base: Int!, $edits: [FlowNodeEditInput!]!) {
  editFlowNodes(flowId: $id, baseVersion: $base, edits: $edits) {
    artifactId version nodeVersions { nodeId version } otherChangedNodes { nodeId version }
  }
}`;
const DELETE = `mutation($id: ID!) { deleteArtifact(id: $id) { artifactId requestId question } }`;
const CONFIRM = `mutation($id: ID!, $requestId: ID!) {
  confirmArtifactDeletion(id: $id, requestId: $requestId) { artifactId version }
}`;
const CHANGED = `subscription($id: ID!) { artifactChanged(id: $id) { artifact { id version deleted } } }`;

interface ArtifactData {
  id: string;
  kind: string;
  title: string;
  version: number;
  deleted: boolean;
  taskIds: string[];
  mediaUrl: string | null;
  deletionRequested: { requestId: string } | null;
  versions: Array<{
    version: number;
    change: string;
    by: { kind: string; userId: string | null };
    mediaUrl: string | null;
  }>;
  document: { version: number; text: string } | null;
  flow: {
    version: number;
    structureVersion: number;
    nodes: Array<{ nodeId: string; kind: string; version: number; paramsJson: string }>;
    edges: Array<{ edgeId: string; from: string; to: string }>;
  } | null;
}
interface Written {
  artifactId: string;
  version: number;
  consistencyToken: string;
}
interface Changed {
  artifactChanged: { artifact: { id: string; version: number; deleted: boolean } };
}

const codeOf = (r: GraphqlResponse<unknown>) => r.errors?.[0]?.extensions?.code;
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(200, 7)]);

describe.each([
  ['the real workspace (npm start)', undefined],
  ['the in-memory fake', FAKE_ENTRY],
] as const)('shared workspace through the API: artefacts, versions, refusals, deletion, media — %s', (_name, entry) => {
  let api: RunningApi;
  let own: string;
  let other: { token: string };

  const gql = <T>(query: string, variables: Record<string, unknown>, token = own) =>
    api.gql<T>(token, query, variables);
  const createDocument = async (title: string, text: string, client?: string) => {
    const created = await gql<{ createArtifact: Written }>(CREATE, { kind: 'DOCUMENT', title, text, client });
    if (!created.data) throw new Error(JSON.stringify(created.errors));
    return created.data.createArtifact;
  };
  const read = async (id: string, token = own) => gql<{ artifact: ArtifactData }>(ARTIFACT, { id }, token);
  const upload = (body: Buffer, contentType: string, token: string | null = own, query = '') =>
    fetch(`${api.url}/media${query}`, {
      method: 'POST',
      headers: { 'content-type': contentType, ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body,
    });
  const download = (path: string, token: string | null = own) =>
    fetch(`${api.url}${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });

  beforeAll(async () => {
    api = await startStandaloneApi({ LOMO_MEDIA_MAX_BYTES: String(MEDIA_MAX) }, entry === undefined ? {} : { entry });
    own = api.devToken;
    other = await createToken(api, 'ws_other', 'mallory');
  }, 90_000);

  afterAll(async () => {
    await api?.stop();
  });

  it('createArtifact makes a document read back with its versions and text; a retry with the same clientArtifactId lands on it', async () => {
    const created = await createDocument('Storyboard', '# Shots\n1. dawn', 'sb-1');
    const retry = await createDocument('Storyboard', '# Shots\n1. dawn', 'sb-1');
    expect(retry.artifactId).toBe(created.artifactId);
    expect(created.consistencyToken).toMatch(/^[A-Za-z0-9_-]+$/);
    const { data } = await read(created.artifactId);
    expect(data?.artifact).toMatchObject({
      id: created.artifactId,
      kind: 'DOCUMENT',
      title: 'Storyboard',
      version: 1,
      deleted: false,
      mediaUrl: null,
      versions: [{ version: 1, change: 'created', by: { kind: 'person', userId: 'dev' } }],
      document: { version: 1, text: '# Shots\n1. dawn' },
      flow: null,
    });
  });

  it('editDocument: a stale base is refused with the current version, a missing snippet changes nothing, a fresh base applies', async () => {
    const { artifactId: id } = await createDocument('Script', 'one two two three');
    const rewritten = await gql<{ editDocument: Written }>(EDIT_DOCUMENT, { id, base: 1, content: 'one two three' });
    expect(rewritten.data?.editDocument.version).toBe(2);

    const stale = await gql(EDIT_DOCUMENT, { id, base: 1, content: 'mine' });
    const missing = await gql(EDIT_DOCUMENT, {
      id,
      base: 2,
      edits: [
        { old: 'one', new: '1' },
        { old: 'four', new: '4' },
      ],
    });
    const both = await gql(EDIT_DOCUMENT, { id, base: 2, content: 'x', edits: [{ old: 'one', new: '1' }] });
    expect([stale, missing, both].map((r) => ({ code: codeOf(r), data: r.data ?? null }))).toEqual([
      { code: 'ARTIFACT_VERSION_CONFLICT', data: null },
      { code: 'SNIPPET_NOT_FOUND', data: null },
      { code: 'VALIDATION_FAILED', data: null },
    ]);
    expect(stale.errors?.[0]?.extensions).toMatchObject({ artifactId: id, currentVersion: 2 });
    expect(missing.errors?.[0]?.extensions).toMatchObject({
      currentVersion: 2,
      failedEdits: [{ index: 1, reason: 'not_found' }],
    });
    expect((await read(id)).data?.artifact.document).toEqual({ version: 2, text: 'one two three' });

    const edited = await gql<{ editDocument: Written }>(EDIT_DOCUMENT, {
      id,
      base: 2,
      edits: [{ old: 'two', new: '2' }],
    });
    expect(edited.data?.editDocument.version).toBe(3);
    const { data } = await read(id);
    expect(data?.artifact.document?.text).toBe('one 2 three');
    expect(data?.artifact.versions.map((v) => v.change)).toEqual(['created', 'replaced', 'snippets_edited']);
    // Earlier versions stay readable.
    const v1 = await gql<{ artifact: { document: { text: string } } }>(
      'query($id: ID!) { artifact(id: $id) { document(version: 1) { text } } }',
      { id },
    );
    expect(v1.data?.artifact.document.text).toBe('one two two three');
  });

  it('editFlowNodes: edits of other nodes apply and are reported; a node changed since its base is refused with its new version', async () => {
    const nodes = [
      { nodeId: 'A', kind: 'shot', paramsJson: '{"text":"dawn"}' },
      { nodeId: 'B', kind: 'shot', paramsJson: '{"text":"noon"}' },
    ];
    const created = await gql<{ createArtifact: Written }>(CREATE, {
      kind: 'FLOW',
      title: 'Shots',
      nodes,
      edges: [{ edgeId: 'e1', from: 'A', to: 'B' }],
    });
    const id = created.data!.createArtifact.artifactId;
    const a = await gql<{ editFlowNodes: { version: number } }>(EDIT_FLOW, {
      id,
      base: 1,
      edits: [{ nodeId: 'A', baseNodeVersion: 1, paramsJson: '{"text":"dusk"}' }],
    });
    expect(a.data?.editFlowNodes.version).toBe(2);
    const b = await gql<{ editFlowNodes: Record<string, unknown> }>(EDIT_FLOW, {
      id,
      base: 1,
      edits: [{ nodeId: 'B', baseNodeVersion: 1, paramsJson: '{"text":"night"}' }],
    });
    expect(b.data?.editFlowNodes).toMatchObject({
      version: 3,
      nodeVersions: [{ nodeId: 'B', version: 2 }],
      otherChangedNodes: [{ nodeId: 'A', version: 2 }],
    });
    const stale = await gql(EDIT_FLOW, { id, base: 1, edits: [{ nodeId: 'A', baseNodeVersion: 1, paramsJson: '{}' }] });
    const badParams = await gql(EDIT_FLOW, {
      id,
      base: 3,
      edits: [{ nodeId: 'A', baseNodeVersion: 2, paramsJson: '[1]' }],
    });
    expect([codeOf(stale), codeOf(badParams)]).toEqual(['FLOW_NODE_CONFLICT', 'VALIDATION_FAILED']);
    expect(stale.errors?.[0]?.extensions).toMatchObject({
      currentVersion: 3,
      changedNodes: [{ nodeId: 'A', version: 2 }],
    });
    const { data } = await read(id);
    expect(data?.artifact.flow).toEqual({
      version: 3,
      structureVersion: 1,
      nodes: [
        { nodeId: 'A', kind: 'shot', version: 2, paramsJson: '{"text":"dusk"}' },
        { nodeId: 'B', kind: 'shot', version: 2, paramsJson: '{"text":"night"}' },
      ],
      edges: [{ edgeId: 'e1', from: 'A', to: 'B' }],
    });
  });

  it('artifacts(kind, first, after) pages through the workspace’s artefacts without repeats', async () => {
    const titles = ['Page one', 'Page two', 'Page three'];
    for (const title of titles) await createDocument(title, title);
    const seen: string[] = [];
    let after: string | null = null;
    for (let i = 0; i < 10; i += 1) {
      const page: GraphqlResponse<{
        artifacts: { edges: Array<{ node: { title: string } }>; pageInfo: { hasNextPage: boolean; endCursor: string } };
      }> = await gql(ARTIFACTS, { kind: 'DOCUMENT', first: 2, after });
      seen.push(...page.data!.artifacts.edges.map((e) => e.node.title));
      if (!page.data!.artifacts.pageInfo.hasNextPage) break;
      after = page.data!.artifacts.pageInfo.endCursor;
    }
    // Most recently changed first, as the read model lists them.
    expect(seen.filter((t) => titles.includes(t))).toEqual([...titles].reverse());
    expect(new Set(seen).size).toBe(seen.length);
    const flows = await gql<{ artifacts: { edges: Array<{ node: { title: string } }> } }>(ARTIFACTS, { kind: 'FLOW' });
    expect(flows.data?.artifacts.edges.map((e) => e.node.title)).toEqual(['Shots']);
  });

  it('deleting without confirmation is refused; after confirmation it is gone from lists', async () => {
    const { artifactId: id } = await createDocument('Old draft', 'to be deleted');
    const listed = async () =>
      (
        await gql<{ artifacts: { edges: Array<{ node: { id: string } }> } }>(ARTIFACTS, { first: 100 })
      ).data!.artifacts.edges.map((e) => e.node.id);
    const asked = await gql<{ deleteArtifact: { requestId: string; question: string } }>(DELETE, { id });
    expect(asked.data?.deleteArtifact.question).toContain('Old draft');
    expect(await listed()).toContain(id);
    expect((await read(id)).data?.artifact.deletionRequested?.requestId).toBe(asked.data?.deleteArtifact.requestId);

    const wrong = await gql(CONFIRM, { id, requestId: '00000000-0000-4000-8000-000000000000' });
    expect(codeOf(wrong)).toBe('DELETION_NOT_CONFIRMED');
    expect(await listed()).toContain(id);

    const confirmed = await gql(CONFIRM, { id, requestId: asked.data!.deleteArtifact.requestId });
    expect(confirmed.errors).toBeUndefined();
    expect(await listed()).not.toContain(id);
    expect((await read(id)).data?.artifact.deleted).toBe(true);
    expect(codeOf(await gql(EDIT_DOCUMENT, { id, base: 1, content: 'back' }))).toBe('ARTIFACT_DELETED');
  });

  it('media upload: stored with its content type, served back by version; 415 for other types, 413 over the limit, 401 without a token', async () => {
    const uploaded = await upload(PNG, 'image/png', own, '?title=Lighthouse');
    expect(uploaded.status).toBe(201);
    const body = (await uploaded.json()) as { artifactId: string; version: number; kind: string; mediaUrl: string };
    expect(body).toMatchObject({ version: 1, kind: 'image', mediaUrl: `/media/${body.artifactId}/1` });

    for (const path of [`/media/${body.artifactId}`, body.mediaUrl]) {
      const got = await download(path);
      expect({
        status: got.status,
        type: got.headers.get('content-type'),
        nosniff: got.headers.get('x-content-type-options'),
      }).toEqual({
        status: 200,
        type: 'image/png',
        nosniff: 'nosniff',
      });
      expect(Buffer.from(await got.arrayBuffer()).equals(PNG)).toBe(true);
    }
    const { data } = await read(body.artifactId);
    expect(data?.artifact).toMatchObject({ kind: 'IMAGE', title: 'Lighthouse', mediaUrl: `/media/${body.artifactId}` });
    expect(data?.artifact.versions[0].mediaUrl).toBe(body.mediaUrl);

    const before = (await gql<{ artifacts: { edges: unknown[] } }>(ARTIFACTS, { kind: 'IMAGE' })).data!.artifacts.edges
      .length;
    const html = await upload(Buffer.from('<script>1</script>'), 'text/html');
    const svg = await upload(Buffer.from('<svg/>'), 'image/svg+xml');
    const large = await upload(Buffer.alloc(MEDIA_MAX + 1, 1), 'image/png');
    const anonymous = await upload(PNG, 'image/png', null);
    const results = await Promise.all(
      [html, svg, large, anonymous].map(async (r) => {
        const text = await r.text();
        return { status: r.status, code: (JSON.parse(text) as { error?: { code: string } }).error?.code ?? text };
      }),
    );
    expect(results).toEqual([
      { status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' },
      { status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' },
      { status: 413, code: 'PAYLOAD_TOO_LARGE' },
      { status: 401, code: 'UNAUTHENTICATED' },
    ]);
    // Refused uploads stored nothing.
    expect(
      (await gql<{ artifacts: { edges: unknown[] } }>(ARTIFACTS, { kind: 'IMAGE' })).data!.artifacts.edges,
    ).toHaveLength(before);
    // A 3d model is accepted as such.
    const model = await upload(Buffer.from('{"asset":{"version":"2.0"}}'), 'model/gltf+json');
    expect(((await model.json()) as { kind: string }).kind).toBe('3d');
    expect((await download(`/media/${body.artifactId}/9`)).status).toBe(404);
    expect((await download(`/media/${body.artifactId}`, null)).status).toBe(401);
  });

  it('artifactChanged(id) sends the current state, then the person’s next version', async () => {
    const { artifactId: id } = await createDocument('Live doc', 'v1');
    const client = liveClient(api, own);
    try {
      const live = subscribe<Changed>(client, CHANGED, { id });
      await live.waitFor((p) => p.artifactChanged.artifact.version === 1, 'the current state');
      await gql(EDIT_DOCUMENT, { id, base: 1, content: 'v2' });
      await live.waitFor((p) => p.artifactChanged.artifact.version === 2, 'the new version');
      expect(live.payloads.map((p) => p.artifactChanged.artifact.version)).toEqual([1, 2]);
      live.unsubscribe();
    } finally {
      await client.dispose();
    }
  });

  it('isolation: another workspace’s artefact ids are NOT_FOUND in every query, mutation, subscription and media URL', async () => {
    const { artifactId: doc } = await createDocument('Private plan', 'secret');
    const image = (await (await upload(PNG, 'image/png')).json()) as { artifactId: string; mediaUrl: string };
    const flow = (
      await gql<{ createArtifact: Written }>(CREATE, {
        kind: 'FLOW',
        title: 'Private flow',
        nodes: [{ nodeId: 'A', kind: 'shot' }],
      })
    ).data!.createArtifact.artifactId;
    const t = other.token;
    const attempts: Array<[string, Promise<GraphqlResponse<unknown>>]> = [
      ['artifact', read(doc, t)],
      ['editDocument', gql(EDIT_DOCUMENT, { id: doc, base: 1, content: 'stolen' }, t)],
      ['editDocument edits', gql(EDIT_DOCUMENT, { id: doc, base: 1, edits: [{ old: 'secret', new: 'x' }] }, t)],
      [
        'editFlowNodes',
        gql(EDIT_FLOW, { id: flow, base: 1, edits: [{ nodeId: 'A', baseNodeVersion: 1, paramsJson: '{}' }] }, t),
      ],
      ['deleteArtifact', gql(DELETE, { id: doc }, t)],
      ['confirmArtifactDeletion', gql(CONFIRM, { id: doc, requestId: '00000000-0000-4000-8000-000000000000' }, t)],
    ];
    const codes = await Promise.all(attempts.map(async ([what, r]) => [what, codeOf(await r)]));
    expect(codes).toEqual(attempts.map(([what]) => [what, 'NOT_FOUND']));
    // Not found carries nothing of the artefact (no version, no title).
    const refused = await read(doc, t);
    expect(refused.errors?.[0]?.extensions).not.toHaveProperty('currentVersion');

    const theirs = await gql<{ artifacts: { edges: unknown[] } }>(ARTIFACTS, { first: 100 }, t);
    expect(theirs.data?.artifacts.edges).toEqual([]);

    const client = liveClient(api, t);
    try {
      const live: LiveSubscription<Changed> = subscribe<Changed>(client, CHANGED, { id: doc });
      await live.ended('the refusal');
      const code = live.end?.errors?.[0]?.extensions?.code ?? live.nextErrors[0]?.[0]?.extensions?.code;
      expect({ code, payloads: live.payloads }).toEqual({ code: 'NOT_FOUND', payloads: [] });
    } finally {
      await client.dispose();
    }
    for (const path of [`/media/${image.artifactId}`, image.mediaUrl]) {
      const got = await download(path, t);
      expect({ status: got.status, code: ((await got.json()) as { error: { code: string } }).error.code }).toEqual({
        status: 404,
        code: 'NOT_FOUND',
      });
    }
    // And nothing changed for the owner.
    expect((await read(doc)).data?.artifact).toMatchObject({ version: 1, deleted: false, deletionRequested: null });
    expect((await read(doc)).data?.artifact.document?.text).toBe('secret');
  });
});
