import { randomUUID } from 'node:crypto';
import * as path from 'node:path';
import type { PersonOnMemory } from '@lomo/application';
import { decideOnMemory, evidenceFingerprint } from '@lomo/memory';
import { FilesystemBlobStore, type BlobStore } from '@lomo/blobs';
import type { EventDataMap, EvidenceSource, ForgettingReport } from '@lomo/contracts';
import type { MemoryCommand, MemoryState } from '@lomo/domain';
import { SqliteEventStore } from '@lomo/eventstore';
import { memoryFingerprint, memoryText } from '@lomo/memory';

type Version = EventDataMap['MemoryVersionCreated'];

/** The event store and blob store of a running standalone, opened from this (other) process. */
export function openStores(dataDir: string): { store: SqliteEventStore; blobs: BlobStore } {
  return {
    store: new SqliteEventStore({ filename: path.join(dataDir, 'events.sqlite') }),
    blobs: new FilesystemBlobStore(path.join(dataDir, 'blobs')),
  };
}

/**
 * Writes a person's memory as extraction would, through the memory decider (so the seed obeys
 * the domain's rules), with texts in the blob store. Each piece of evidence is recorded with its
 * extraction in one append, so no extraction worker would find it waiting.
 */
export class MemorySeeder {
  private readonly ids = { uuid: () => randomUUID() };

  constructor(
    private readonly store: SqliteEventStore,
    private readonly blobs: BlobStore,
    readonly owner: PersonOnMemory,
  ) {}

  async textRef(claim: string, subject: string, value: string) {
    return this.blobs.put(memoryText(claim, subject, value), 'text/plain');
  }

  /** Evidence and what its extraction decided: new versions, supersessions, confirmations. */
  async extract(
    source: EvidenceSource,
    words: string,
    decide: (evidenceId: string) => Promise<{
      versions?: Version[];
      supersessions?: EventDataMap['MemoryVersionSuperseded'][];
      confirmations?: EventDataMap['MemoryVersionConfirmed'][];
    }>,
  ): Promise<string> {
    const evidenceId = randomUUID();
    const { versions = [], supersessions = [], confirmations = [] } = await decide(evidenceId);
    const at = new Date().toISOString();
    const outcomes = [
      ...versions.map((v, index) => ({
        index,
        outcome: v.cause === 'refined' ? ('refined' as const) : ('created' as const),
        memoryId: v.memoryId,
        versionId: v.versionId,
      })),
      ...confirmations.map((c, i) => ({
        index: versions.length + i,
        outcome: 'confirmed' as const,
        memoryId: c.memoryId,
        versionId: c.versionId,
      })),
    ];
    await this.decide([
      { type: 'RecordEvidence', evidenceId, source, at, fingerprint: evidenceFingerprint(words) },
      {
        type: 'RecordExtraction',
        extraction: { evidenceId, extractor: 'offline_rules', candidates: outcomes.length, outcomes },
        versions,
        supersessions,
        confirmations,
      },
    ]);
    return evidenceId;
  }

  /** A version as extraction drafts it. */
  async version(input: {
    memoryId: string;
    version: number;
    subject: string;
    claim: string;
    value: string;
    evidence: Version['evidence'];
    kind?: Version['kind'];
    scope?: Version['scope'];
    origin?: Version['origin'];
    derivedFrom?: string[];
    cause?: Version['cause'];
  }): Promise<Version> {
    return {
      memoryId: input.memoryId,
      versionId: randomUUID(),
      version: input.version,
      subject: input.subject,
      kind: input.kind ?? 'preference',
      scope: input.scope ?? { kind: 'long_term' },
      origin: input.origin ?? 'explicit',
      text: await this.textRef(input.claim, input.subject, input.value),
      fingerprint: memoryFingerprint(input.subject, input.value),
      validFrom: new Date().toISOString(),
      evidence: input.evidence,
      derivedFrom: input.derivedFrom ?? [],
      cause: input.cause ?? 'extracted',
    };
  }

  /** Commands decided in order and appended as one batch; a function of the state when they depend on it. */
  decide(commands: MemoryCommand[] | ((state: MemoryState) => MemoryCommand[])) {
    const decided = typeof commands === 'function' ? commands : () => commands;
    return decideOnMemory({ store: this.store, ids: this.ids }, this.owner, decided, {
      kind: 'system',
      component: 'memory-seed',
    });
  }
}

const message = (language = 'en', taskId?: string): EvidenceSource => ({
  kind: 'message',
  messageId: randomUUID(),
  language,
  ...(taskId !== undefined ? { taskId } : {}),
});

/** What seedBrandColour wrote, by name. */
export interface BrandColourSeed {
  taskId: string;
  brand: { memoryId: string; v1: string; v2: string; e1: string; e2: string; e3: string };
  format: { memoryId: string; versionId: string; evidenceId: string };
  inferred: { memoryId: string; versionId: string; evidenceId: string };
  summaryId: string;
}

/**
 * The article's example (issue 18): "our brand's main colour is blue" → v1 (ORIGIN); "blue with
 * off-white is softer" → v2 (REFINE), v1 superseded; a later confirmation adds CONFIRM; plus a
 * task-local memory, an inferred one from an observation, two profile versions and a summary.
 */
export async function seedBrandColour(seeder: MemorySeeder): Promise<BrandColourSeed> {
  const taskId = randomUUID();
  const brandId = randomUUID();
  const subject = 'brand.colour.main';
  let v1!: Version;
  const e1 = await seeder.extract(message(), "Our brand's main colour is blue", async (e) => {
    v1 = await seeder.version({
      memoryId: brandId,
      version: 1,
      subject,
      kind: 'fact',
      claim: "The brand's main colour is blue.",
      value: 'blue',
      evidence: [{ evidenceId: e, role: 'ORIGIN' }],
    });
    return { versions: [v1] };
  });
  await seeder.decide([
    {
      type: 'PublishProfile',
      version: 1,
      text: await seeder.textRef('Brand: main colour blue.', 'profile', '1'),
      memoryVersionIds: [v1.versionId],
      reason: 'memories_changed',
    },
  ]);
  let v2!: Version;
  const e2 = await seeder.extract(message(), 'Blue with off-white is softer', async (e) => {
    v2 = await seeder.version({
      memoryId: brandId,
      version: 2,
      subject,
      kind: 'fact',
      claim: "The brand's main colour is blue, with off-white.",
      value: 'blue with off-white',
      evidence: [
        { evidenceId: e1, role: 'ORIGIN' },
        { evidenceId: e, role: 'REFINE' },
      ],
      derivedFrom: [v1.versionId],
      cause: 'refined',
    });
    return {
      versions: [v2],
      supersessions: [{ memoryId: brandId, versionId: v1.versionId, byVersionId: v2.versionId, reason: 'refined' }],
    };
  });
  const e3 = await seeder.extract(message(), 'Yes, blue with off-white', async (e) => ({
    confirmations: [{ memoryId: brandId, versionId: v2.versionId, evidenceId: e }],
  }));
  await seeder.decide([
    {
      type: 'PublishProfile',
      version: 2,
      text: await seeder.textRef('Brand: main colour blue with off-white.', 'profile', '2'),
      memoryVersionIds: [v2.versionId],
      reason: 'memories_changed',
    },
  ]);

  const formatId = randomUUID();
  let format!: Version;
  const e4 = await seeder.extract(message('en', taskId), 'Make this poster 16:9', async (e) => {
    format = await seeder.version({
      memoryId: formatId,
      version: 1,
      subject: 'poster.format',
      claim: 'This poster is 16:9.',
      value: '16:9',
      scope: { kind: 'task', taskId },
      evidence: [{ evidenceId: e, role: 'ORIGIN' }],
    });
    return { versions: [format] };
  });

  const inferredId = randomUUID();
  let guess!: Version;
  const turnId = randomUUID();
  const observation: EvidenceSource = {
    kind: 'observation',
    taskId,
    turnId,
    callId: `${turnId}:1:0`,
    tool: 'media.image',
  };
  const e5 = await seeder.extract(observation, 'style: cyberpunk', async (e) => {
    guess = await seeder.version({
      memoryId: inferredId,
      version: 1,
      subject: 'style.visual',
      claim: 'Seems to like cyberpunk images.',
      value: 'cyberpunk',
      origin: 'inferred',
      evidence: [{ evidenceId: e, role: 'ORIGIN' }],
    });
    return { versions: [guess] };
  });

  const summaryId = randomUUID();
  await seeder.decide([
    {
      type: 'WriteEpisodeSummary',
      summaryId,
      taskId,
      text: await seeder.textRef('Poster in 16:9, brand blue.', 'summary', '1'),
      evidenceIds: [e4],
      memoryVersionIds: [format.versionId, v2.versionId],
    },
  ]);
  return {
    taskId,
    brand: { memoryId: brandId, v1: v1.versionId, v2: v2.versionId, e1, e2, e3 },
    format: { memoryId: formatId, versionId: format.versionId, evidenceId: e4 },
    inferred: { memoryId: inferredId, versionId: guess.versionId, evidenceId: e5 },
    summaryId,
  };
}

/**
 * A completed forgetting of the task-local format memory, as the cascade runner would append it
 * (request, confirmation, the cascade, completion), in one batch so a runner finds it done.
 */
export async function seedCompletedForgetting(seeder: MemorySeeder, seed: BrandColourSeed): Promise<string> {
  const forgettingId = randomUUID();
  const { memoryId, versionId, evidenceId } = seed.format;
  await seeder.decide((state: MemoryState): MemoryCommand[] => {
    const fingerprint = state.versions[versionId].fingerprint;
    const report: ForgettingReport = {
      revokedEvidenceIds: [evidenceId],
      purgedVersionIds: [versionId],
      reextractedVersionIds: [],
      detached: [],
      profileVersion: null,
      purgedProfileVersions: [],
      summariesInvalidated: [seed.summaryId],
      summariesRebuilt: [],
      indexEntriesDeleted: [`memory:${versionId}`],
      suppressions: [fingerprint],
      blobsDeleted: [],
      excluded: [],
    };
    return [
      {
        type: 'RequestForgetting',
        forgettingId,
        target: { kind: 'memory', memoryId },
        requestedBy: seeder.owner.userId,
      },
      { type: 'ConfirmForgetting', forgettingId, confirmedBy: seeder.owner.userId },
      {
        type: 'ApplyForgetting',
        forgettingId,
        revoked: { forgettingId, evidenceIds: [evidenceId] },
        purged: [{ forgettingId, memoryId, versionId }],
        detached: [],
        suppressed: {
          forgettingId,
          fingerprints: [fingerprint, state.evidence[evidenceId].fingerprint],
          throughEvidence: state.evidenceCount,
        },
        reextracted: [],
        profile: null,
        purgedProfiles: [],
        summariesInvalidated: [{ summaryId: seed.summaryId, forgettingId }],
        summariesWritten: [],
      },
      { type: 'CompleteForgetting', forgettingId, report },
    ];
  });
  return forgettingId;
}
