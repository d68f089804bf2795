import { join } from 'node:path';
import { SqliteEventStore } from '@lomo/eventstore';
import { makeTempDir, newTaskStreamId, newTurnStreamId } from '@lomo/eventstore/testing';
import type { AckMarker, OpenMarker } from './fixtures/crash-appender.child';
import { spawnTsChild } from './fixtures/ts-child';

const CHILD = join(__dirname, 'fixtures/crash-appender.child.ts');
const KILLS = 55;

interface Batch extends OpenMarker {
  acknowledged: boolean;
}

/**
 * SIGKILL an appender at random moments, over and over, on one file. After every kill the file
 * is reopened (WAL recovery) and checked: every acknowledged batch is there whole, no batch is
 * there in part, revisions stay contiguous, and nothing unknown appears.
 */
describe('SQLite event store under repeated SIGKILL', () => {
  it(`keeps acknowledged batches whole and drops open ones whole across ${KILLS} kills`, async () => {
    const temp = makeTempDir('crash-loop');
    const filename = join(temp.dir, 'events.sqlite');
    const streamIds = [newTurnStreamId(), newTaskStreamId(), newTurnStreamId()];
    const nextRevision = new Map(streamIds.map((s) => [s, 0]));
    const batches = new Map<string, Batch>();
    let killsInsideTransaction = 0;
    let acknowledgedTotal = 0;

    try {
      for (let kill = 0; kill < KILLS; kill += 1) {
        const child = spawnTsChild(CHILD, [filename, JSON.stringify(streamIds)]);
        await child.waitForLine((l) => l.includes('"ready"'));
        await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 120));
        child.process.kill('SIGKILL');
        const status = await child.exited;
        expect(status.signal).toBe('SIGKILL');

        // Batches of this run: open markers come from inside the transaction, before COMMIT.
        let lastOpen: Batch | undefined;
        const runBatches: Batch[] = [];
        for (const line of child.lines) {
          const message = JSON.parse(line) as { open?: OpenMarker; ack?: AckMarker };
          if (message.open) {
            lastOpen = { ...message.open, acknowledged: false };
            batches.set(lastOpen.eventIds[0], lastOpen);
            runBatches.push(lastOpen);
          } else if (message.ack) {
            const batch = batches.get(message.ack.firstEventId);
            expect(batch).toBeDefined();
            batch!.acknowledged = true;
            acknowledgedTotal += 1;
          }
        }

        const store = new SqliteEventStore({ filename });
        try {
          const present = new Set<string>();
          for (const streamId of streamIds) {
            const from = nextRevision.get(streamId)!;
            const fresh = await store.readStream(streamId, { fromRevision: from });
            expect(fresh.map((e) => e.metadata.revision)).toEqual(fresh.map((_, i) => from + i));
            nextRevision.set(streamId, from + fresh.length);
            // The new events are, in order, exactly the whole batches of this run that committed.
            const ids = fresh.map((e) => e.metadata.eventId);
            const committed = runBatches.filter((b) => b.streamId === streamId && ids.includes(b.eventIds[0]));
            expect(ids).toEqual(committed.flatMap((b) => b.eventIds));
            for (const b of committed) present.add(b.eventIds[0]);
          }
          for (const batch of runBatches) {
            if (batch.acknowledged) expect(present.has(batch.eventIds[0])).toBe(true);
          }
          // The kill hit between BEGIN IMMEDIATE and the end of COMMIT, and the batch is gone:
          // it landed inside an open transaction, which recovery rolled back.
          if (lastOpen !== undefined && !lastOpen.acknowledged && !present.has(lastOpen.eventIds[0]))
            killsInsideTransaction += 1;
        } finally {
          await store.close();
        }
      }

      const store = new SqliteEventStore({ filename });
      try {
        const all = await store.readAll();
        const present = [...batches.values()].filter((b) => all.some((e) => e.metadata.eventId === b.eventIds[0]));
        // One global order in which every batch is contiguous; nothing else is in the file.
        const expected = present
          .map((b) => ({ b, at: all.findIndex((e) => e.metadata.eventId === b.eventIds[0]) }))
          .sort((x, y) => x.at - y.at)
          .flatMap(({ b }) => b.eventIds);
        expect(all.map((e) => e.metadata.eventId)).toEqual(expected);
        expect([...batches.values()].filter((b) => b.acknowledged).every((b) => present.includes(b))).toBe(true);
      } finally {
        await store.close();
      }
      expect(acknowledgedTotal).toBeGreaterThan(KILLS);
      expect(killsInsideTransaction).toBeGreaterThan(0);
    } finally {
      temp.remove();
    }
  }, 90_000);
});
