import { randomUUID } from 'node:crypto';
import { OPERATOR_READ_MESSAGE } from '@lomo/auth';
import type { SqliteEventStore } from '@lomo/eventstore';
import { MemorySeeder, openStores, seedBrandColour, type BrandColourSeed } from './support/memory-seed';
import { eventually, startStandaloneApi, type GraphqlResponse, type RunningApi } from './support/standalone-api';

interface Token {
  id: string;
  token: string;
}
interface MemoryNode {
  id: string;
  subject: string;
  scope: string;
  taskId: string | null;
  origin: string;
  status: string;
}
type ListData = {
  memories: { edges: Array<{ cursor: string; node: MemoryNode }>; pageInfo: { hasNextPage: boolean } };
};

const WS = 'ws_memory';
const codeOf = (r: GraphqlResponse<unknown>) => r.errors?.[0]?.extensions?.code;
const LIST = `query($scope: MemoryScopeFilter, $taskId: ID, $status: MemoryStatus, $first: Int, $after: String, $ws: String, $user: String) {
  memories(scope: $scope, taskId: $taskId, status: $status, first: $first, after: $after, workspaceId: $ws, userId: $user) {
    edges { cursor node { id subject scope taskId origin status } }
    pageInfo { hasNextPage }
  }
}`;
const DETAIL = `query($id: ID!, $ws: String, $user: String) {
  memory(id: $id, workspaceId: $ws, userId: $user) {
    id subject kind scope origin status
    currentVersion { id version }
    versions {
      id version status purged cause origin validFrom validTo supersededBy supersededReason derivedFrom
      text value
      evidence { evidenceId role sourceKind messageId taskId turnId tool revoked }
    }
  }
}`;
const PROFILE = 'query { profile { version text memoryVersionIds earlierVersions versions { version purged } } }';

// One person's memory through the API, seeded straight into the event and blob stores of a
// running standalone: listed by scope and status, read with versions, texts and evidence; private
// to its person in a shared workspace; refused to integrations; read (and logged) by operators.
describe('memory read API', () => {
  let api: RunningApi;
  let store: SqliteEventStore;
  let alice: Token;
  let bob: Token;
  let ci: Token;
  let op: Token;
  let seed: BrandColourSeed;
  let bobsMemoryId: string;

  const createToken = async (user: string, kind: string, workspace = WS): Promise<Token> => {
    const created = await api.tokens(['create', '--workspace', workspace, '--user', user, '--kind', kind]);
    if (created.code !== 0) throw new Error(`tokens create failed: ${created.stderr}`);
    return JSON.parse(created.stdout.trim()) as Token;
  };
  const list = (who: Token, variables: Record<string, unknown> = {}) =>
    api.gql<ListData>(who.token, LIST, { first: 50, ...variables });

  beforeAll(async () => {
    api = await startStandaloneApi();
    [alice, bob, ci, op] = await Promise.all([
      createToken('alice', 'person'),
      createToken('bob', 'person'),
      createToken('ci', 'integration'),
      createToken('sam', 'operator', 'ops'),
    ]);
    const stores = openStores(api.dataDir);
    store = stores.store;
    seed = await seedBrandColour(new MemorySeeder(store, stores.blobs, { workspaceId: WS, userId: 'alice' }));
    const bobs = new MemorySeeder(store, stores.blobs, { workspaceId: WS, userId: 'bob' });
    bobsMemoryId = randomUUID();
    await bobs.extract(
      { kind: 'message', messageId: randomUUID(), language: 'en' },
      'My secret project is called Heron',
      async (e) => ({
        versions: [
          await bobs.version({
            memoryId: bobsMemoryId,
            version: 1,
            subject: 'project.codename',
            kind: 'fact',
            claim: 'The secret project is Heron.',
            value: 'heron',
            evidence: [{ evidenceId: e, role: 'ORIGIN' }],
          }),
        ],
      }),
    );
    await eventually(
      () => list(alice),
      (r) => r.data?.memories.edges.length === 3,
      "alice's three memories in the read model",
    );
    await eventually(
      () => list(bob),
      (r) => r.data?.memories.edges.length === 1,
      "bob's memory in the read model",
    );
  }, 120_000);

  afterAll(async () => {
    await store?.close();
    await api?.stop();
  });

  it('lists memories by scope, task and status, most recently changed first, page by page', async () => {
    const all = await list(alice);
    expect(all.errors).toBeUndefined();
    // The inferred memory was extracted last, the brand colour changed before the task's format.
    expect(all.data!.memories.edges.map((e) => e.node.id)).toEqual([
      seed.inferred.memoryId,
      seed.format.memoryId,
      seed.brand.memoryId,
    ]);
    expect(all.data!.memories.edges.map((e) => e.node)).toContainEqual({
      id: seed.brand.memoryId,
      subject: 'brand.colour.main',
      scope: 'LONG_TERM',
      taskId: null,
      origin: 'EXPLICIT',
      status: 'CURRENT',
    });

    const ids = async (variables: Record<string, unknown>) =>
      (await list(alice, variables)).data?.memories.edges.map((e) => e.node.id);
    expect(await ids({ scope: 'LONG_TERM' })).toEqual([seed.inferred.memoryId, seed.brand.memoryId]);
    expect(await ids({ scope: 'TASK' })).toEqual([seed.format.memoryId]);
    expect(await ids({ taskId: seed.taskId })).toEqual([seed.format.memoryId]);
    expect(await ids({ taskId: randomUUID() })).toEqual([]);
    expect(await ids({ status: 'CURRENT' })).toHaveLength(3);
    expect(await ids({ status: 'PURGED' })).toEqual([]);

    const first = await list(alice, { first: 2 });
    expect(first.data!.memories.pageInfo.hasNextPage).toBe(true);
    const rest = await list(alice, { first: 2, after: first.data!.memories.edges[1].cursor });
    expect(rest.data!.memories.edges.map((e) => e.node.id)).toEqual([seed.brand.memoryId]);
    expect(rest.data!.memories.pageInfo.hasNextPage).toBe(false);
  });

  it('reads a memory with its versions, their texts from the blob store and their evidence by role', async () => {
    const read = await api.gql<{ memory: Record<string, unknown> & { versions: Array<Record<string, unknown>> } }>(
      alice.token,
      DETAIL,
      { id: seed.brand.memoryId },
    );
    expect(read.errors).toBeUndefined();
    const memory = read.data!.memory;
    expect(memory).toMatchObject({
      id: seed.brand.memoryId,
      kind: 'FACT',
      status: 'CURRENT',
      currentVersion: { id: seed.brand.v2, version: 2 },
    });
    const [v1, v2] = memory.versions;
    expect(v1).toMatchObject({
      id: seed.brand.v1,
      version: 1,
      status: 'SUPERSEDED',
      purged: false,
      cause: 'EXTRACTED',
      supersededBy: seed.brand.v2,
      supersededReason: 'REFINED',
      text: "The brand's main colour is blue.",
      value: 'blue',
      evidence: [expect.objectContaining({ evidenceId: seed.brand.e1, role: 'ORIGIN', sourceKind: 'MESSAGE' })],
    });
    expect(v2).toMatchObject({
      id: seed.brand.v2,
      status: 'CURRENT',
      cause: 'REFINED',
      derivedFrom: [seed.brand.v1],
      value: 'blue with off-white',
      evidence: [
        expect.objectContaining({ evidenceId: seed.brand.e1, role: 'ORIGIN', revoked: false }),
        expect.objectContaining({ evidenceId: seed.brand.e2, role: 'REFINE' }),
        expect.objectContaining({ evidenceId: seed.brand.e3, role: 'CONFIRM' }),
      ],
    });
    expect((v2.evidence as Array<{ messageId: string | null }>).every((e) => e.messageId !== null)).toBe(true);

    // A guess from what the agent did is marked inferred, its evidence an observation of a tool call.
    const inferred = await api.gql<{ memory: { origin: string; versions: Array<{ evidence: unknown[] }> } }>(
      alice.token,
      DETAIL,
      { id: seed.inferred.memoryId },
    );
    expect(inferred.data!.memory.origin).toBe('INFERRED');
    expect(inferred.data!.memory.versions[0].evidence).toEqual([
      expect.objectContaining({ role: 'ORIGIN', sourceKind: 'OBSERVATION', taskId: seed.taskId, tool: 'media.image' }),
    ]);

    const profile = await api.gql<{ profile: Record<string, unknown> }>(alice.token, PROFILE);
    expect(profile.data!.profile).toEqual({
      version: 2,
      text: 'Brand: main colour blue with off-white.\nprofile = 2',
      memoryVersionIds: [seed.brand.v2],
      earlierVersions: [1],
      versions: [
        { version: 1, purged: false },
        { version: 2, purged: false },
      ],
    });

    const unknown = await api.gql<{ memory: unknown }>(alice.token, DETAIL, { id: randomUUID() });
    expect(unknown.errors).toBeUndefined();
    expect(unknown.data!.memory).toBeNull();
  });

  it('is private to its person: another person of the workspace sees none of it, on every memory query', async () => {
    const bobsOwn = await list(bob);
    expect(bobsOwn.data!.memories.edges.map((e) => e.node.id)).toEqual([bobsMemoryId]);
    const asBob = await api.gql<{ memory: unknown; forgetting: unknown }>(
      bob.token,
      'query($id: ID!) { memory(id: $id) { id } forgetting(id: $id) { id } }',
      { id: seed.brand.memoryId },
    );
    expect(asBob.errors).toBeUndefined();
    expect(asBob.data).toEqual({ memory: null, forgetting: null });
    // Naming alice is refused, whether she has memory or not.
    for (const user of ['alice', 'nobody_here']) {
      const named = await list(bob, { user });
      expect({ user, code: codeOf(named), data: named.data }).toEqual({ user, code: 'FORBIDDEN', data: null });
    }
    const detail = await api.gql(bob.token, DETAIL, { id: seed.brand.memoryId, user: 'alice' });
    expect(codeOf(detail)).toBe('FORBIDDEN');
    // Another workspace's person names a workspace not theirs: the same refusal.
    const outsider = await createToken('alice', 'person', 'ws_other');
    expect(codeOf(await list(outsider, { ws: WS }))).toBe('FORBIDDEN');
    expect((await list(outsider)).data!.memories.edges).toEqual([]);
    // The raw stream reads as empty to bob, as every private stream does.
    const events = await api.gql<{ events: { edges: unknown[] } }>(
      bob.token,
      'query($s: String!) { events(streamId: $s) { edges { cursor } } }',
      { s: `memory-${WS}.alice` },
    );
    expect(events.data!.events.edges).toEqual([]);
  });

  it('refuses integration tokens every read and every change of memory', async () => {
    const reads = [
      api.gql(ci.token, LIST, {}),
      api.gql(ci.token, DETAIL, { id: seed.brand.memoryId }),
      api.gql(ci.token, PROFILE),
      api.gql(ci.token, 'query($id: ID!) { forgetting(id: $id) { id } }', { id: randomUUID() }),
      api.gql(ci.token, 'mutation($id: ID!) { forgetMemory(memoryId: $id) { question } }', { id: seed.brand.memoryId }),
      api.gql(ci.token, 'mutation($id: ID!) { confirmForgetting(forgettingId: $id) { changed } }', {
        id: randomUUID(),
      }),
      api.gql(ci.token, 'mutation($id: ID!) { correctMemory(memoryId: $id, text: "green") { version } }', {
        id: seed.brand.memoryId,
      }),
    ];
    for (const answer of await Promise.all(reads)) {
      // A nullable field answers null beside its error; a non-null one nulls the whole `data`.
      const values = answer.data === null || answer.data === undefined ? [] : Object.values(answer.data);
      expect({ code: codeOf(answer), values }).toEqual({ code: 'FORBIDDEN', values: values.map(() => null) });
    }
  });

  it('lets an operator read any person’s memory, logging each read, but not forget it', async () => {
    const read = await list(op, { ws: WS, user: 'alice' });
    expect(read.errors).toBeUndefined();
    expect(read.data!.memories.edges).toHaveLength(3);
    const detail = await api.gql<{ memory: { id: string } }>(op.token, DETAIL, {
      id: seed.brand.memoryId,
      ws: WS,
      user: 'alice',
    });
    expect(detail.data!.memory.id).toBe(seed.brand.memoryId);
    await eventually(
      async () =>
        api.lines.filter(
          (l) =>
            l.msg === OPERATOR_READ_MESSAGE &&
            l.tokenId === op.id &&
            l.workspaceId === WS &&
            l.streamId === `memory-${WS}.alice`,
        ),
      (lines) => lines.some((l) => l.path === 'memories') && lines.some((l) => l.path === 'memory'),
      'the operator’s memory reads in the log',
    );
    // People's own reads leave no operator line.
    expect(api.lines.filter((l) => l.msg === OPERATOR_READ_MESSAGE && l.tokenId === alice.id)).toEqual([]);

    const revision = await store.streamRevision(`memory-${WS}.alice`);
    const forget = await api.gql(op.token, 'mutation($id: ID!) { forgetMemory(memoryId: $id) { question } }', {
      id: seed.brand.memoryId,
    });
    expect(codeOf(forget)).toBe('FORBIDDEN');
    expect(await store.streamRevision(`memory-${WS}.alice`)).toBe(revision);
  });
});
