import { join } from 'node:path';
import fc from 'fast-check';
import type { EventEnvelope } from '@lomo/contracts';
import { SqliteEventStore } from '@lomo/eventstore';
import { makeTempDir, newTaskStreamId, newTurnStreamId } from '@lomo/eventstore/testing';
import type { AppendAck, AppenderStep } from './fixtures/appender.child';
import { spawnTsChild } from './fixtures/ts-child';

const CHILD = join(__dirname, 'fixtures/appender.child.ts');

/** Which stream a step targets: one of the shared streams, or the child's own. */
const stepPlan = fc.record({
  target: fc.constantFrom('shared0', 'shared1', 'shared0', 'own'),
  size: fc.integer({ min: 1, max: 5 }),
  mode: fc.constantFrom<'exact' | 'any'>('exact', 'exact', 'any'),
  pause: fc.boolean(),
});
const workloadPlan = fc.array(fc.array(stepPlan, { minLength: 20, maxLength: 60 }), { minLength: 2, maxLength: 3 });

describe('SQLite event store shared by several processes', () => {
  let totalConflicts = 0;

  it('loses and duplicates no acknowledged event; revisions contiguous; one global order', async () => {
    await fc.assert(
      fc.asyncProperty(workloadPlan, async (plans) => {
        const temp = makeTempDir('multi-process');
        const filename = join(temp.dir, 'events.sqlite');
        try {
          const shared = [newTurnStreamId(), newTaskStreamId()];
          const workloads = plans.map((plan) => {
            const own = newTaskStreamId();
            return plan.map<AppenderStep>(({ target, ...rest }) => ({
              streamId: target === 'own' ? own : shared[target === 'shared0' ? 0 : 1],
              ...rest,
            }));
          });
          const children = workloads.map((w) => spawnTsChild(CHILD, [filename, JSON.stringify(w)]));
          await Promise.all(children.map((c) => c.waitForLine((l) => l === 'ready')));
          for (const child of children) child.process.stdin!.end('go\n');
          const statuses = await Promise.all(children.map((c) => c.exited));
          expect(statuses.map((s) => s.code)).toEqual(children.map(() => 0));

          const acks: AppendAck[] = [];
          for (const child of children) {
            for (const line of child.lines) {
              const message = line.startsWith('{')
                ? (JSON.parse(line) as { ack?: AppendAck; done?: { conflicts: number } })
                : {};
              if (message.ack) acks.push(message.ack);
              if (message.done) totalConflicts += message.done.conflicts;
            }
          }
          expect(acks).toHaveLength(workloads.reduce((n, w) => n + w.length, 0));

          const store = new SqliteEventStore({ filename });
          try {
            await expectAcknowledgedLog(store, acks);
          } finally {
            await store.close();
          }
        } finally {
          temp.remove();
        }
      }),
      { numRuns: 6 },
    );
    // Children really raced on the shared streams (they read, then append with that revision).
    expect(totalConflicts).toBeGreaterThan(0);
  }, 60_000);
});

async function expectAcknowledgedLog(store: SqliteEventStore, acks: AppendAck[]): Promise<void> {
  const all = await store.readAll();
  const indexOf = new Map(all.map((e, i) => [e.metadata.eventId, i]));
  // Nothing lost, nothing duplicated, nothing that was not acknowledged.
  expect(all).toHaveLength(indexOf.size);
  expect([...indexOf.keys()].sort()).toEqual(acks.flatMap((a) => a.eventIds).sort());

  const byStream = new Map<string, EventEnvelope[]>();
  for (const event of all)
    byStream.set(event.metadata.streamId, [...(byStream.get(event.metadata.streamId) ?? []), event]);
  for (const [streamId, events] of byStream) {
    // Global order and stream order agree, and revisions run 0..n-1 without a gap.
    expect(events.map((e) => e.metadata.revision)).toEqual(events.map((_, i) => i));
    expect(await store.readStream(streamId)).toEqual(events);
  }
  for (const ack of acks) {
    const stream = byStream.get(ack.streamId)!;
    const first = ack.nextExpectedRevision - ack.eventIds.length + 1;
    // Each acknowledged batch sits whole, in order, at the revisions its caller was told.
    expect(stream.slice(first, ack.nextExpectedRevision + 1).map((e) => e.metadata.eventId)).toEqual(ack.eventIds);
    expect(stream[ack.nextExpectedRevision].metadata.globalPosition).toBe(ack.position);
    const positions = ack.eventIds.map((id) => indexOf.get(id)!);
    expect(positions).toEqual(positions.map((_, i) => positions[0] + i));
  }
}
