import fc from 'fast-check';
import type { EventEnvelope } from '@lomo/contracts';
import { silentLogger } from '@lomo/observability';
import { ProjectionRunner, readModelProjections } from '@lomo/read-models';
import { createMongoDocumentStoreHarness, mongoUrl } from '@lomo/read-models/testing';
import { writeMultiTaskScenario } from '../integration/projections/support/multi-task-scenario';
import {
  cleanRebuild,
  LiveInstance,
  openEventStore,
  physicalOf,
  snapshotOf,
  type EventStoreFixture,
  type Snapshot,
} from '../integration/projections/support/projection-harness';
import { batches, interleave, redeliveryArbitrary } from '../integration/projections/support/redelivery';

// FerretDB evaluates filters over whole collections in Go: slower than SQLite, same answers.
jest.setTimeout(180_000);

/**
 * The projection tests on the MongoDB wire protocol (FerretDB here, MongoDB 6+ wherever
 * MONGODB_URL points): the same scenario, the same expected documents as on SQLite.
 */
describe(`projections on ${mongoUrl()}`, () => {
  let fixture: EventStoreFixture;
  let log: EventEnvelope[];
  let rebuiltOnSqlite: Snapshot;

  beforeAll(async () => {
    fixture = openEventStore();
    await writeMultiTaskScenario(fixture.events);
    log = await fixture.events.readAll();
    const clean = await cleanRebuild(fixture.events);
    rebuiltOnSqlite = clean.snapshot;
    await clean.documents.close();
  });

  afterAll(() => fixture.dispose());

  it('a clean rebuild on the MongoDB wire protocol gives exactly the documents of the SQLite rebuild', async () => {
    const harness = await createMongoDocumentStoreHarness();
    try {
      const runner = new ProjectionRunner({
        documents: harness.store,
        events: fixture.events,
        projections: readModelProjections,
        logger: silentLogger,
        dropRetiredAfterMs: 0,
      });
      await runner.start();
      await runner.ready();
      await runner.stop();
      expect(await snapshotOf(harness.store, physicalOf())).toEqual(rebuiltOnSqlite);
    } finally {
      await harness.dispose();
    }
  });

  it('events redelivered one to three times in random cross-stream interleavings give the same documents (live, compare-and-set writes)', async () => {
    await fc.assert(
      fc.asyncProperty(redeliveryArbitrary(log.length), async (plan) => {
        const harness = await createMongoDocumentStoreHarness();
        try {
          const live = new LiveInstance(harness.store, fixture.events);
          for (const batch of batches(interleave(log, plan), plan.batchSizes)) await live.deliver(batch);
          expect(await snapshotOf(harness.store, physicalOf())).toEqual(rebuiltOnSqlite);
        } finally {
          await harness.dispose();
        }
      }),
      { numRuns: 10, seed: 42 },
    );
  });
});
