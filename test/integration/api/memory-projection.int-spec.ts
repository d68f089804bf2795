import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { FilesystemBlobStore } from '@lomo/blobs';
import type { EventEnvelope } from '@lomo/contracts';
import { memoryProjections, type MemoryDocument, type ProjectionDocument } from '@lomo/read-models';
import {
  cleanRebuild,
  LiveInstance,
  memoryDocuments,
  openEventStore,
  physicalOf,
  snapshotOf,
  type EventStoreFixture,
  type Snapshot,
} from '../projections/support/projection-harness';
import { batches, interleave, redeliveryArbitrary } from '../projections/support/redelivery';
import { MemorySeeder, seedBrandColour, seedCompletedForgetting, type BrandColourSeed } from './support/memory-seed';

const doc = (snapshot: Snapshot, id: string) => snapshot.memories[id] as unknown as MemoryDocument;

// The `memories` projection folds two people's memory streams: whatever order the streams
// interleave in, however often an event is redelivered, and even when a stream's events come
// newest first (the gap is read from the store), the documents equal a clean rebuild's.
describe('memories projection: idempotent under duplicates and reordering, a rebuild equals the live state', () => {
  let fixture: EventStoreFixture;
  let log: EventEnvelope[];
  let rebuilt: Snapshot;
  let seed: BrandColourSeed;
  let forgettingId: string;
  let cancelledId: string;

  beforeAll(async () => {
    fixture = openEventStore();
    const blobs = new FilesystemBlobStore(join(fixture.dir, 'blobs'));
    const alice = new MemorySeeder(fixture.events, blobs, { workspaceId: 'ws1', userId: 'alice' });
    const bob = new MemorySeeder(fixture.events, blobs, { workspaceId: 'ws1', userId: 'bob' });
    seed = await seedBrandColour(alice);
    await seedBrandColour(bob);
    cancelledId = randomUUID();
    await alice.decide([
      {
        type: 'RequestForgetting',
        forgettingId: cancelledId,
        target: { kind: 'memory', memoryId: seed.brand.memoryId },
        requestedBy: 'alice',
      },
      { type: 'CancelForgetting', forgettingId: cancelledId, by: 'alice' },
    ]);
    forgettingId = await seedCompletedForgetting(alice, seed);
    log = await fixture.events.readAll();
    const clean = await cleanRebuild(fixture.events, memoryProjections);
    rebuilt = clean.snapshot;
    await clean.documents.close();
  });

  afterAll(() => fixture.dispose());

  it('a clean rebuild holds every document kind of the scenario', () => {
    const id = (kind: string, entity?: string) => `ws1.alice:${kind}${entity === undefined ? '' : `:${entity}`}`;
    expect(doc(rebuilt, id('memory', seed.brand.memoryId))).toMatchObject({
      docType: 'memory',
      userId: 'alice',
      status: 'current',
      currentVersionId: seed.brand.v2,
      versions: [
        { versionId: seed.brand.v1, status: 'superseded', supersededReason: 'refined', supersededBy: seed.brand.v2 },
        {
          versionId: seed.brand.v2,
          status: 'current',
          evidence: [
            { evidenceId: seed.brand.e1, role: 'ORIGIN' },
            { evidenceId: seed.brand.e2, role: 'REFINE' },
            { evidenceId: seed.brand.e3, role: 'CONFIRM' },
          ],
        },
      ],
    });
    expect(doc(rebuilt, id('memory', seed.format.memoryId))).toMatchObject({
      status: 'purged',
      currentVersionId: null,
      scopeKind: 'task',
      taskId: seed.taskId,
      versions: [{ status: 'purged', text: null, purgedBy: forgettingId }],
    });
    expect(doc(rebuilt, id('evidence', seed.format.evidenceId)).evidence).toMatchObject({
      sourceKind: 'message',
      taskId: seed.taskId,
      revokedBy: forgettingId,
      extraction: { extractor: 'offline_rules', candidates: 1 },
    });
    expect(doc(rebuilt, id('profile')).profile!.versions.map((v) => [v.version, v.purged])).toEqual([
      [1, false],
      [2, false],
    ]);
    expect(doc(rebuilt, id('forgetting', forgettingId)).forgetting).toMatchObject({
      status: 'completed',
      report: { purgedVersionIds: [seed.format.versionId] },
    });
    expect(doc(rebuilt, id('forgetting', cancelledId)).forgetting).toMatchObject({ status: 'cancelled' });
    expect(doc(rebuilt, id('summary', seed.summaryId)).summary).toMatchObject({
      status: 'invalidated',
      text: null,
      invalidatedBy: forgettingId,
    });
    // Bob's memory is his own documents, keyed by his person: the same scenario, without alice's two forgettings.
    expect(Object.keys(rebuilt.memories).filter((k) => k.startsWith('ws1.bob:'))).toHaveLength(
      Object.keys(rebuilt.memories).filter((k) => k.startsWith('ws1.alice:')).length - 2,
    );
  });

  it('events redelivered one to three times, the two streams interleaved at random, give the clean rebuild', async () => {
    await fc.assert(
      fc.asyncProperty(redeliveryArbitrary(log.length), async (plan) => {
        const documents = memoryDocuments();
        try {
          const live = new LiveInstance(documents, fixture.events, undefined, memoryProjections);
          for (const batch of batches(interleave(log, plan), plan.batchSizes)) await live.deliver(batch);
          expect(await snapshotOf(documents, physicalOf(memoryProjections))).toEqual(rebuilt);
          expect(live.totals.duplicates).toBe(plan.copies.reduce((sum, c) => sum + c - 1, 0));
        } finally {
          await documents.close();
        }
      }),
      { numRuns: 15 },
    );
  });

  it('a stream delivered newest first fills the gap from the store and ends the same', async () => {
    const documents = memoryDocuments();
    try {
      const live = new LiveInstance(documents, fixture.events, undefined, memoryProjections);
      for (const event of [...log].reverse()) await live.deliver([event]);
      const snapshot: Record<string, Record<string, ProjectionDocument>> = await snapshotOf(
        documents,
        physicalOf(memoryProjections),
      );
      expect(snapshot).toEqual(rebuilt);
      expect(live.totals.gapFilled).toBeGreaterThan(0);
    } finally {
      await documents.close();
    }
  });
});
