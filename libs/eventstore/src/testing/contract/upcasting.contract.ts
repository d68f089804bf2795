import { randomUUID } from 'node:crypto';
import type { EventEnvelope } from '@lomo/contracts';
import type { EventStoreHarness, RawStoredEvent } from '../event-store-harness';
import { newTaskStreamId, newTurnStreamId, sampleMetadata, turnLeased } from '../sample-events';

/**
 * Registered only for adapters that can store a raw old event; the upcasters themselves are
 * unit-tested in contracts. What this proves: the store upcasts on every read path.
 */
const ids = (events: EventEnvelope[]) => events.map((e) => e.metadata.eventId);

export function upcastingContract(harness: () => EventStoreHarness): void {
  describe('upcasting on read', () => {
    it('returns stored v1 events (including a renamed type) as current envelopes from readStream and readAll', async () => {
      const { insertRaw } = harness();
      if (insertRaw === undefined) throw new Error('upcastingContract needs insertRaw');
      const store = harness().store;
      const task = newTaskStreamId();
      const turn = newTurnStreamId();
      const taskId = task.slice('task-'.length);
      const origin = randomUUID();
      const v1Task: RawStoredEvent = {
        streamId: task,
        eventId: randomUUID(),
        type: 'TaskCreated',
        schemaVersion: 1,
        data: { taskId, kind: 'persistent', goal: 'Paint', language: 'en', origin },
        metadata: sampleMetadata(),
      };
      const v1Lease: RawStoredEvent = {
        streamId: turn,
        eventId: randomUUID(),
        type: 'TurnLeaseExtended',
        schemaVersion: 1,
        data: { workerId: 'w1', generation: 2, expiresAt: '2030-01-01T00:00:00.000Z' },
        metadata: sampleMetadata(),
      };
      await insertRaw(v1Task);
      await insertRaw(v1Lease);

      const [taskEvent] = await store.readStream(task);
      expect(taskEvent.type).toBe('TaskCreated');
      expect(taskEvent.data).toEqual({
        taskId,
        kind: 'persistent',
        goal: 'Paint',
        language: 'en',
        originMessageId: origin,
      });
      expect(taskEvent.metadata.schemaVersion).toBe(2);

      const all = await store.readAll();
      expect(all.map((e) => e.type)).toEqual(['TaskCreated', 'TurnLeaseRenewed']);
      expect(all[1].data).toEqual({ workerId: 'w1', generation: 2, leaseUntil: '2030-01-01T00:00:00.000Z' });
      expect(all[1].metadata).toMatchObject({ schemaVersion: 2, eventId: v1Lease.eventId, revision: 0 });
      // A filter on the current name also finds events stored under the former one.
      expect(ids(await store.readAll({ filter: { eventTypes: ['TurnLeaseRenewed'] } }))).toEqual([v1Lease.eventId]);

      // New writes continue the old stream's revisions.
      await expect(store.append(turn, [turnLeased(3)], 0)).resolves.toMatchObject({ nextExpectedRevision: 1 });
    });
  });
}
