import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { NewEvent } from '@lomo/contracts';
import {
  dedupeByEventId,
  eventIdOf,
  InMemoryProcessedEventIds,
  InProcessEventBus,
  relayedEventOf,
  SqliteBusLog,
} from '@lomo/bus';
import { waitFor } from '@lomo/bus/testing';
import { SqliteEventStore } from '@lomo/eventstore';
import { spawnTs } from './fixtures/spawn-ts';

const CHILD = path.join(__dirname, 'fixtures/relay.child.ts');
const KILLS = 5;
const STREAMS = 8;

const itemChanged = (n: number): NewEvent => ({
  eventId: randomUUID(),
  type: 'ChecklistItemChanged',
  data: { itemId: `item-${n}`, status: 'done', note: `event ${n}` },
  metadata: { correlationId: `crash-${n}`, causationId: null, workspaceId: 'ws1', actor: { kind: 'agent' } },
});

/**
 * The relay is killed with SIGKILL right after the bus accepted a batch and before its
 * checkpoint is saved, several times, while events keep arriving. Every event must reach the
 * bus at least once, and a consumer deduplicating by event id must see each exactly once, in
 * stream order.
 */
describe('event relay under SIGKILL', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(path.join(tmpdir(), 'lomo-relay-crash-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it(`delivers every event at least once across ${KILLS} kills mid-batch, and exactly once after dedupe`, async () => {
    const eventsFile = path.join(dir, 'events.sqlite');
    const busFile = path.join(dir, 'bus.sqlite');
    const store = new SqliteEventStore({ filename: eventsFile });
    let n = 0;
    const appendSome = async (count: number) => {
      for (let i = 0; i < count; i += 1, n += 1)
        await store.append(`task-crash${n % STREAMS}`, [itemChanged(n)], 'any');
    };
    await appendSome(120);

    for (let kill = 0; kill < KILLS; kill += 1) {
      const relay = spawnTs(CHILD, [eventsFile, busFile]);
      // The kill lands after a later batch, so every run also moves the checkpoint forward.
      const batchesBeforeKill = 2 + (kill % 3);
      await relay.waitFor((m) => m.published === batchesBeforeKill, `batch ${batchesBeforeKill} published`);
      relay.child.kill('SIGKILL');
      expect((await relay.exited).signal).toBe('SIGKILL');
      await appendSome(15);
    }
    const final = spawnTs(CHILD, [eventsFile, busFile, 'drain']);
    await final.waitFor((m) => m.drained === true, 'the final drain', 60_000);
    expect((await final.exited).code).toBe(0);

    const stored = await store.readAll();
    await store.close();
    const log = SqliteBusLog.open({ filename: busFile });
    const onBus = [0, 1, 2, 3].reduce((sum, p) => sum + log.endOffset('lomo.events.task', p), 0);
    log.close();

    const bus = InProcessEventBus.open({ filename: busFile });
    try {
      const raw: string[] = [];
      const unique: Array<{ eventId: string; streamId: string; revision: number }> = [];
      const backoff = { initialDelayMs: 1, maxDelayMs: 5 };
      await bus.subscribe({
        groupId: 'raw',
        topics: ['lomo.events.task'],
        maxAttempts: 1,
        backoff,
        fromBeginning: true,
        handler: async (m) => void raw.push(eventIdOf(m) ?? ''),
      });
      await bus.subscribe({
        groupId: 'deduped',
        topics: ['lomo.events.task'],
        maxAttempts: 1,
        backoff,
        fromBeginning: true,
        handler: dedupeByEventId(async (m) => {
          const { metadata } = relayedEventOf(m);
          unique.push({ eventId: metadata.eventId, streamId: metadata.streamId, revision: metadata.revision });
        }, new InMemoryProcessedEventIds()),
      });
      await waitFor(
        () => raw.length === onBus && unique.length === stored.length,
        'both consumers through the topic',
        30_000,
      );

      expect(new Set(raw)).toEqual(new Set(stored.map((e) => e.metadata.eventId)));
      // The kills really hit between publish and checkpoint: batches went out twice.
      expect(raw.length).toBeGreaterThan(stored.length);
      expect(unique.map((u) => u.eventId).sort()).toEqual(stored.map((e) => e.metadata.eventId).sort());
      for (let s = 0; s < STREAMS; s += 1) {
        const revisions = unique.filter((u) => u.streamId === `task-crash${s}`).map((u) => u.revision);
        expect(revisions).toEqual(revisions.map((_, i) => i));
      }
    } finally {
      await bus.close();
    }
  }, 120_000);
});
