import fc from 'fast-check';
import { ConcurrencyError, type ExpectedRevision, type NewEvent } from '@lomo/contracts';
import type { AppendResult, EventStore } from '../../event-store.port';
import type { EventStoreHarness } from '../event-store-harness';
import { newTaskStreamId, newTurnStreamId, sampleEventsFor } from '../sample-events';

type Mode = 'exact' | 'any' | 'no_stream' | 'repeat';
interface Operation {
  stream: number;
  mode: Mode;
  size: number;
}
interface Worker {
  /** 0 = the harness store, 1 = a second instance on the same storage. */
  connection: number;
  operations: Operation[];
}
interface Acknowledged {
  streamId: string;
  events: NewEvent[];
  expected: ExpectedRevision;
  result: AppendResult;
}

const operation = fc.record({
  stream: fc.nat({ max: 2 }),
  mode: fc.constantFrom<Mode>('exact', 'exact', 'exact', 'any', 'no_stream', 'repeat'),
  size: fc.integer({ min: 1, max: 3 }),
});
const workers = fc.array(
  fc.record({ connection: fc.nat({ max: 1 }), operations: fc.array(operation, { minLength: 1, maxLength: 5 }) }),
  {
    minLength: 2,
    maxLength: 4,
  },
);

const MAX_ATTEMPTS = 30;

/**
 * Appenders race on shared and separate streams, through one or two connections, in orders
 * chosen by fast-check's scheduler. Whatever the interleaving: no acknowledged event is lost or
 * duplicated, revisions are contiguous, and a ConcurrencyError happens only where the protocol
 * allows one (never for 'any', and for an exact expectation only once the stream moved past it).
 */
export function concurrencyContract(harness: () => EventStoreHarness): void {
  describe('concurrent appenders (property-based)', () => {
    it('never lose or duplicate an acknowledged event; conflicts only as the protocol says', async () => {
      const stores: EventStore[] = [harness().store, await harness().openAnother()];
      await fc.assert(
        fc.asyncProperty(fc.scheduler(), workers, async (scheduler, plan) => {
          const streamIds = [newTurnStreamId(), newTaskStreamId(), newTurnStreamId()];
          const acknowledged: Acknowledged[] = [];
          const violations: string[] = [];
          // Every store call waits for the scheduler, which picks the interleaving.
          const step = <T>(label: string, call: () => Promise<T>) =>
            scheduler.schedule(Promise.resolve(label), label).then(call);

          const runWorker = async (worker: Worker, index: number) => {
            const store = stores[worker.connection];
            let last: Acknowledged | undefined;
            for (const op of worker.operations) {
              if (op.mode === 'repeat') {
                if (last === undefined) continue;
                const { streamId, events, expected, result } = last;
                const repeat = await step(`w${index} repeat`, () => store.append(streamId, events, expected));
                if (
                  repeat.written ||
                  repeat.nextExpectedRevision !== result.nextExpectedRevision ||
                  repeat.position !== result.position
                ) {
                  violations.push(
                    `w${index}: repeat of an acknowledged append was not a no-op: ${JSON.stringify(repeat)}`,
                  );
                }
                continue;
              }
              const streamId = streamIds[op.stream];
              for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt += 1) {
                const expected: ExpectedRevision =
                  op.mode === 'exact' ? await step(`w${index} read`, () => store.streamRevision(streamId)) : op.mode;
                const events = sampleEventsFor(streamId, op.size, 1);
                try {
                  const result = await step(`w${index} append ${String(expected)}`, () =>
                    store.append(streamId, events, expected),
                  );
                  last = { streamId, events, expected, result };
                  acknowledged.push(last);
                  break;
                } catch (error) {
                  if (!(error instanceof ConcurrencyError)) throw error;
                  const allowed =
                    (expected === 'no_stream' && error.actual !== 'no_stream') ||
                    (typeof expected === 'number' && typeof error.actual === 'number' && error.actual > expected);
                  if (!allowed || error.expected !== expected || error.streamId !== streamId) {
                    violations.push(`w${index}: ConcurrencyError not allowed by the protocol: ${error.message}`);
                  }
                  if (op.mode !== 'exact') break;
                }
              }
            }
          };

          await scheduler.waitFor(Promise.all(plan.map(runWorker)));
          expect(violations).toEqual([]);
          await expectLogMatches(stores[0], streamIds, acknowledged);
        }),
        { numRuns: 40 },
      );
    });
  });
}

async function expectLogMatches(store: EventStore, streamIds: string[], acknowledged: Acknowledged[]): Promise<void> {
  for (const streamId of streamIds) {
    const stored = await store.readStream(streamId);
    expect(stored.map((e) => e.metadata.revision)).toEqual(stored.map((_, i) => i));
    const acks = acknowledged.filter((a) => a.streamId === streamId);
    // Exactly the acknowledged events, each once, each batch whole at the revisions it was told.
    expect(stored.map((e) => e.metadata.eventId).sort()).toEqual(
      acks.flatMap((a) => a.events.map((e) => e.eventId)).sort(),
    );
    for (const { events, result } of acks) {
      const first = result.nextExpectedRevision - events.length + 1;
      expect(stored.slice(first, first + events.length).map((e) => e.metadata.eventId)).toEqual(
        events.map((e) => e.eventId),
      );
      expect(stored[result.nextExpectedRevision].metadata.globalPosition).toBe(result.position);
    }
  }
  // Global order agrees with every stream's order.
  const all = await store.readAll({ filter: { streamPrefixes: streamIds } });
  expect(all).toHaveLength(acknowledged.reduce((n, a) => n + a.events.length, 0));
  for (const streamId of streamIds) {
    const own = all.filter((e) => e.metadata.streamId === streamId).map((e) => e.metadata.revision);
    expect(own).toEqual(own.map((_, i) => i));
  }
}
