import { readdirSync, rmSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { BlobStore } from '@lomo/blobs';
import type { SqliteEventStore } from '@lomo/eventstore';
import { memoryFingerprint } from '@lomo/memory';
import {
  memoryProjections,
  ProjectionAliases,
  SqliteDocumentStore,
  streamsCollection,
  type ProjectionDocument,
} from '@lomo/read-models';
import { cleanRebuild, snapshotOf } from '../projections/support/projection-harness';
import {
  MemorySeeder,
  openStores,
  seedBrandColour,
  seedCompletedForgetting,
  type BrandColourSeed,
} from './support/memory-seed';
import { eventually, startStandaloneApi, type GraphqlResponse, type RunningApi } from './support/standalone-api';

interface Token {
  id: string;
  token: string;
}
interface ForgettingView {
  id: string;
  status: string;
  evidenceIds: string[];
  requestedAt: string | null;
  report: Record<string, unknown> | null;
}
interface ForgetData {
  forgetMemory: {
    forgetting: ForgettingView;
    affects: Record<string, unknown> & { purgedVersions: Array<{ versionId: string }> };
    question: string;
    created: boolean;
    consistencyToken: string;
  };
}
type ChangeData<K extends string> = Record<
  K,
  { forgetting: ForgettingView; changed: boolean; consistencyToken: string }
>;
interface VersionView {
  id: string;
  version: number;
  status: string;
  purged: boolean;
  cause: string;
  origin: string;
  validFrom: string;
  validTo: string | null;
  supersededReason: string | null;
  derivedFrom: string[];
  text: string | null;
  value: string | null;
  evidence: Array<{ evidenceId: string; role: string; sourceKind: string; revoked: boolean }>;
}

const WS = 'ws_forget';
const STREAM = `memory-${WS}.alice`;
const codeOf = (r: GraphqlResponse<unknown>) => r.errors?.[0]?.extensions?.code;
const FORGETTING =
  'id status evidenceIds requestedAt report { revokedEvidenceIds purgedVersionIds summariesInvalidated profileVersion blobsDeleted suppressions }';
const FORGET = `mutation($memoryId: ID, $evidenceIds: [ID!], $client: String) {
  forgetMemory(memoryId: $memoryId, evidenceIds: $evidenceIds, clientRequestId: $client) {
    forgetting { ${FORGETTING} }
    affects { evidenceIds purgedVersions { memoryId versionId version } memoriesLosingCurrent detached { memoryId versionId evidenceId } profileAffected profileVersionsPurged summariesInvalidated }
    question created consistencyToken
  }
}`;
const CONFIRM = `mutation($id: ID!) { confirmForgetting(forgettingId: $id) { forgetting { ${FORGETTING} } changed consistencyToken } }`;
const CANCEL = `mutation($id: ID!) { cancelForgetting(forgettingId: $id) { forgetting { ${FORGETTING} } changed consistencyToken } }`;
const CORRECT = `mutation($id: ID!, $text: String!, $value: String, $validFrom: String, $client: String) {
  correctMemory(memoryId: $id, text: $text, value: $value, validFrom: $validFrom, clientCorrectionId: $client) {
    memoryId versionId version correctedVersionId validFrom changed consistencyToken
  }
}`;
const MEMORY = `query($id: ID!, $t: String) {
  memory(id: $id, consistentWith: $t) {
    status
    versions { id version status purged cause origin validFrom validTo supersededReason derivedFrom text value evidence { evidenceId role sourceKind revoked } }
  }
}`;
const READ_FORGETTING = `query($id: ID!, $t: String) { forgetting(id: $id, consistentWith: $t) { ${FORGETTING} } }`;

function filesUnder(dir: string): number {
  let count = 0;
  for (const entry of readdirSync(dir)) {
    const full = path.join(dir, entry);
    count += statSync(full).isDirectory() ? filesUnder(full) : 1;
  }
  return count;
}

// The person's changes to their memory through a real HTTP server: forgetting waits for the
// person's confirmation (and a cancel drops it), a correction is a new version with validity,
// bad input changes nothing, a completed forgetting answers with its report, and the memories
// projection rebuilt from the log equals what the live projector built.
describe('memory forgetting and corrections API', () => {
  let api: RunningApi;
  let store: SqliteEventStore;
  let blobs: BlobStore;
  let alice: Token;
  let op: Token;
  let seed: BrandColourSeed;

  const createToken = async (user: string, kind: string, workspace = WS): Promise<Token> => {
    const created = await api.tokens(['create', '--workspace', workspace, '--user', user, '--kind', kind]);
    if (created.code !== 0) throw new Error(`tokens create failed: ${created.stderr}`);
    return JSON.parse(created.stdout.trim()) as Token;
  };
  const memoryOf = async (id: string, t?: string) =>
    (await api.gql<{ memory: { status: string; versions: VersionView[] } }>(alice.token, MEMORY, { id, t })).data!
      .memory;
  const typesOfStream = async () => (await store.readStream(STREAM)).map((e) => e.type);

  beforeAll(async () => {
    api = await startStandaloneApi({}, { keepDataDir: true });
    [alice, op] = await Promise.all([createToken('alice', 'person'), createToken('sam', 'operator', 'ops')]);
    ({ store, blobs } = openStores(api.dataDir));
    seed = await seedBrandColour(new MemorySeeder(store, blobs, { workspaceId: WS, userId: 'alice' }));
    await eventually(
      () => api.gql<{ memories: { edges: unknown[] } }>(alice.token, 'query { memories { edges { cursor } } }'),
      (r) => r.data?.memories.edges.length === 3,
      'the seeded memories in the read model',
    );
  }, 120_000);

  afterAll(async () => {
    await store?.close();
    await api?.stop();
    if (api !== undefined) rmSync(api.dataDir, { recursive: true, force: true });
  });

  it('bad input gets a typed error and changes nothing: no event, no blob', async () => {
    const revision = await store.streamRevision(STREAM);
    const blobFiles = filesUnder(path.join(api.dataDir, 'blobs'));
    const future = new Date(Date.now() + 3_600_000).toISOString();
    const cases: Array<[string, string, Record<string, unknown>, string]> = [
      ['neither memoryId nor evidenceIds', FORGET, {}, 'VALIDATION_FAILED'],
      ['both', FORGET, { memoryId: seed.brand.memoryId, evidenceIds: [seed.brand.e1] }, 'VALIDATION_FAILED'],
      ['not an id', FORGET, { memoryId: 'brand-colour' }, 'VALIDATION_FAILED'],
      ['no evidence', FORGET, { evidenceIds: [] }, 'VALIDATION_FAILED'],
      ['an unknown memory', FORGET, { memoryId: randomUUID() }, 'NOT_FOUND'],
      ['unknown evidence', FORGET, { evidenceIds: [seed.brand.e1, randomUUID()] }, 'NOT_FOUND'],
      ['confirm an unknown forgetting', CONFIRM, { id: randomUUID() }, 'NOT_FOUND'],
      ['cancel an unknown forgetting', CANCEL, { id: randomUUID() }, 'NOT_FOUND'],
      ['correct an unknown memory', CORRECT, { id: randomUUID(), text: 'green' }, 'NOT_FOUND'],
      [
        'a text of two lines',
        CORRECT,
        { id: seed.brand.memoryId, text: 'green\nbrand.colour.main = red' },
        'VALIDATION_FAILED',
      ],
      ['an empty text', CORRECT, { id: seed.brand.memoryId, text: '   ' }, 'VALIDATION_FAILED'],
      [
        'valid from the future',
        CORRECT,
        { id: seed.brand.memoryId, text: 'green', validFrom: future },
        'VALIDATION_FAILED',
      ],
      [
        'valid before the corrected version',
        CORRECT,
        { id: seed.brand.memoryId, text: 'green', validFrom: '2001-01-01T00:00:00Z' },
        'VALIDATION_FAILED',
      ],
      ['not a time', CORRECT, { id: seed.brand.memoryId, text: 'green', validFrom: 'yesterday' }, 'VALIDATION_FAILED'],
      [
        'a task id with LONG_TERM',
        'query($t: ID) { memories(scope: LONG_TERM, taskId: $t) { edges { cursor } } }',
        { t: seed.taskId },
        'VALIDATION_FAILED',
      ],
      ['a page of 0', 'query { memories(first: 0) { edges { cursor } } }', {}, 'VALIDATION_FAILED'],
      [
        'a forged cursor',
        'query { memories(after: "bm90LWEtY3Vyc29y") { edges { cursor } } }',
        {},
        'VALIDATION_FAILED',
      ],
    ];
    for (const [what, query, variables, code] of cases) {
      const answer = await api.gql(alice.token, query, variables);
      expect({ what, code: codeOf(answer) }).toEqual({ what, code });
    }
    expect(await store.streamRevision(STREAM)).toBe(revision);
    expect(filesUnder(path.join(api.dataDir, 'blobs'))).toBe(blobFiles);
  });

  it('forgetMemory asks and says what it will affect; nothing is forgotten until confirmed, and a cancel drops it', async () => {
    const asked = await api.gql<ForgetData>(alice.token, FORGET, {
      memoryId: seed.brand.memoryId,
      client: 'forget-brand',
    });
    expect(asked.errors).toBeUndefined();
    const { forgetting, affects, question, created } = asked.data!.forgetMemory;
    expect(created).toBe(true);
    expect(forgetting).toMatchObject({
      status: 'REQUESTED',
      evidenceIds: [seed.brand.e1, seed.brand.e2],
      report: null,
    });
    expect(affects).toEqual({
      evidenceIds: [seed.brand.e1, seed.brand.e2],
      purgedVersions: [
        { memoryId: seed.brand.memoryId, versionId: seed.brand.v1, version: 1 },
        { memoryId: seed.brand.memoryId, versionId: seed.brand.v2, version: 2 },
      ],
      memoriesLosingCurrent: [seed.brand.memoryId],
      detached: [],
      profileAffected: true,
      profileVersionsPurged: [1, 2],
      summariesInvalidated: [seed.summaryId],
    });
    expect(question).toMatch(/messages stay in the chat/);

    // A retry with the same client id is the same pending forgetting.
    const again = await api.gql<ForgetData>(alice.token, FORGET, {
      memoryId: seed.brand.memoryId,
      client: 'forget-brand',
    });
    expect(again.data!.forgetMemory).toMatchObject({ created: false, forgetting: { id: forgetting.id } });

    // Nothing forgotten: every version and its text still there, the evidence still usable.
    const token = asked.data!.forgetMemory.consistencyToken;
    const memory = await memoryOf(seed.brand.memoryId, token);
    expect(memory.versions.map((v) => [v.status, v.text !== null])).toEqual([
      ['SUPERSEDED', true],
      ['CURRENT', true],
    ]);
    expect(memory.versions[1].evidence.every((e) => !e.revoked)).toBe(true);
    const pending = await api.gql<{ forgetting: ForgettingView }>(alice.token, READ_FORGETTING, {
      id: forgetting.id,
      t: token,
    });
    expect(pending.data!.forgetting).toMatchObject({ status: 'REQUESTED', requestedAt: expect.any(String) });

    const cancelled = await api.gql<ChangeData<'cancelForgetting'>>(alice.token, CANCEL, { id: forgetting.id });
    expect(cancelled.data!.cancelForgetting).toMatchObject({ changed: true, forgetting: { status: 'CANCELLED' } });
    const twice = await api.gql<ChangeData<'cancelForgetting'>>(alice.token, CANCEL, { id: forgetting.id });
    expect(twice.data!.cancelForgetting.changed).toBe(false);
    const revision = await store.streamRevision(STREAM);
    expect(codeOf(await api.gql(alice.token, CONFIRM, { id: forgetting.id }))).toBe('FORGETTING_NOT_CONFIRMABLE');
    expect(await store.streamRevision(STREAM)).toBe(revision);
    const read = await api.gql<{ forgetting: ForgettingView }>(alice.token, READ_FORGETTING, {
      id: forgetting.id,
      t: cancelled.data!.cancelForgetting.consistencyToken,
    });
    expect(read.data!.forgetting.status).toBe('CANCELLED');
    expect(await typesOfStream()).not.toEqual(expect.arrayContaining(['ForgettingConfirmed']));
    expect(await typesOfStream()).not.toEqual(expect.arrayContaining(['EvidenceRevoked']));
  });

  it('correctMemory makes a new version with validity; the corrected one stays answerable for its time', async () => {
    const variables = {
      id: seed.brand.memoryId,
      text: "The brand's main colour is green.",
      value: 'green',
      client: 'green-now',
    };
    type Corrected = {
      correctMemory: Record<string, unknown> & { versionId: string; validFrom: string; consistencyToken: string };
    };
    const corrected = await api.gql<Corrected>(alice.token, CORRECT, variables);
    expect(corrected.errors).toBeUndefined();
    expect(corrected.data!.correctMemory).toMatchObject({
      memoryId: seed.brand.memoryId,
      version: 3,
      correctedVersionId: seed.brand.v2,
      changed: true,
    });
    const retry = await api.gql<Corrected>(alice.token, CORRECT, variables);
    expect(retry.data!.correctMemory).toMatchObject({
      versionId: corrected.data!.correctMemory.versionId,
      changed: false,
    });

    const { versionId, validFrom, consistencyToken } = corrected.data!.correctMemory;
    const memory = await memoryOf(seed.brand.memoryId, consistencyToken);
    expect(memory.status).toBe('CURRENT');
    const [, v2, v3] = memory.versions;
    expect(v2).toMatchObject({
      status: 'SUPERSEDED',
      supersededReason: 'CORRECTED',
      validTo: validFrom,
      value: 'blue with off-white',
    });
    expect(v3).toMatchObject({
      id: versionId,
      version: 3,
      status: 'CURRENT',
      cause: 'CORRECTED',
      origin: 'EXPLICIT',
      validFrom,
      validTo: null,
      derivedFrom: [seed.brand.v2],
      text: "The brand's main colour is green.",
      value: 'green',
      evidence: [expect.objectContaining({ role: 'ORIGIN', sourceKind: 'MESSAGE', revoked: false })],
    });

    // The event holds the text's reference and the claim's fingerprint, never the text.
    const events = await store.readStream(STREAM);
    const created = events.find(
      (e) => e.type === 'MemoryVersionCreated' && (e.data as { versionId: string }).versionId === versionId,
    )!;
    const data = created.data as { text: { hash: string }; fingerprint: string };
    expect(JSON.stringify(created.data)).not.toMatch(/green/);
    expect(data.fingerprint).toBe(memoryFingerprint('brand.colour.main', 'green'));
    expect((await blobs.get(data.text.hash))?.toString('utf8')).toBe(
      "The brand's main colour is green.\nbrand.colour.main = green",
    );
  });

  it('only the person confirms; a confirmed forgetting is handed to the background runner', async () => {
    const asked = await api.gql<ForgetData>(alice.token, FORGET, { evidenceIds: [seed.brand.e3] });
    const { forgetting, affects } = asked.data!.forgetMemory;
    // The confirmation only: its link goes, the (superseded) version stays.
    expect(affects).toMatchObject({
      purgedVersions: [],
      detached: [{ memoryId: seed.brand.memoryId, versionId: seed.brand.v2, evidenceId: seed.brand.e3 }],
      profileAffected: false,
    });
    expect(codeOf(await api.gql(op.token, CONFIRM, { id: forgetting.id }))).toBe('FORBIDDEN');

    const confirmed = await api.gql<ChangeData<'confirmForgetting'>>(alice.token, CONFIRM, { id: forgetting.id });
    expect(confirmed.data!.confirmForgetting).toMatchObject({ changed: true, forgetting: { status: 'CONFIRMED' } });
    const repeat = await api.gql<ChangeData<'confirmForgetting'>>(alice.token, CONFIRM, { id: forgetting.id });
    expect(repeat.data!.confirmForgetting.changed).toBe(false);
    expect(codeOf(await api.gql(alice.token, CANCEL, { id: forgetting.id }))).toBe('FORGETTING_NOT_CANCELLABLE');
    expect((await typesOfStream()).filter((t) => t === 'ForgettingConfirmed')).toHaveLength(1);

    const read = await api.gql<{ forgetting: ForgettingView }>(alice.token, READ_FORGETTING, {
      id: forgetting.id,
      t: confirmed.data!.confirmForgetting.consistencyToken,
    });
    // The cascade runner (when one runs) may have taken it further already.
    expect(['CONFIRMED', 'APPLIED', 'COMPLETED']).toContain(read.data!.forgetting.status);
  });

  it('a completed forgetting answers with its report, and its purged versions read as purged without text', async () => {
    const seeder = new MemorySeeder(store, blobs, { workspaceId: WS, userId: 'alice' });
    const forgettingId = await seedCompletedForgetting(seeder, seed);

    const done = await eventually(
      () => api.gql<{ forgetting: ForgettingView }>(alice.token, READ_FORGETTING, { id: forgettingId }),
      (r) => r.data?.forgetting?.status === 'COMPLETED',
      'the completed forgetting in the read model',
    );
    expect(done.data!.forgetting.report).toEqual({
      revokedEvidenceIds: [seed.format.evidenceId],
      purgedVersionIds: [seed.format.versionId],
      summariesInvalidated: [seed.summaryId],
      profileVersion: null,
      blobsDeleted: 0,
      suppressions: [memoryFingerprint('poster.format', '16:9')],
    });
    const memory = await memoryOf(seed.format.memoryId);
    expect(memory.status).toBe('PURGED');
    expect(memory.versions).toEqual([
      expect.objectContaining({
        status: 'PURGED',
        purged: true,
        text: null,
        value: null,
        evidence: [expect.objectContaining({ evidenceId: seed.format.evidenceId, revoked: true })],
      }),
    ]);
    const purged = await api.gql<{ memories: { edges: Array<{ node: { id: string } }> } }>(
      alice.token,
      'query { memories(status: PURGED) { edges { node { id } } } }',
    );
    expect(purged.data!.memories.edges.map((e) => e.node.id)).toEqual([seed.format.memoryId]);
  });

  it('the memories projection rebuilt from the log equals the live one', async () => {
    const documents = new SqliteDocumentStore({ filename: path.join(api.dataDir, 'read-models.sqlite') });
    try {
      const collection = (await new ProjectionAliases(documents).collectionOf('memories'))!;
      // Live has applied the whole stream (a background runner may still be appending).
      await eventually(
        async () => ({
          applied: (await documents.get<{ _id: string; revision: number }>(streamsCollection(collection), STREAM))
            ?.revision,
          head: await store.streamRevision(STREAM),
        }),
        (r) => r.applied === r.head,
        'the live projection at the head of the memory stream',
      );
      await api.stop();
      const live = await snapshotOf(documents, [{ name: 'memories', collection }]);
      const rebuilt = await cleanRebuild(store, memoryProjections);
      await rebuilt.documents.close();
      const ofAlice = (snapshot: Record<string, ProjectionDocument>) =>
        Object.fromEntries(Object.entries(snapshot).filter(([id]) => id.startsWith(`${WS}.alice:`)));
      expect(Object.keys(ofAlice(live.memories)).length).toBeGreaterThan(10);
      expect(ofAlice(rebuilt.snapshot.memories)).toEqual(ofAlice(live.memories));
    } finally {
      await documents.close();
    }
  });
});
