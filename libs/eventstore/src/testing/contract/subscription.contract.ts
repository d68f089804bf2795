import type { EventEnvelope } from '@lomo/contracts';
import type { EventStore } from '../../event-store.port';
import type { EventStoreHarness } from '../event-store-harness';
import { mainStreamId, newTaskStreamId, newTurnStreamId, sampleEventsFor, userMessageReceived } from '../sample-events';
import { waitUntil } from '../wait-until';

const ids = (events: EventEnvelope[]) => events.map((e) => e.metadata.eventId);

async function appendSome(store: EventStore, streamId: string, count: number): Promise<string[]> {
  const revision = await store.streamRevision(streamId);
  const from = revision === 'no_stream' ? 0 : revision + 1;
  const events = sampleEventsFor(streamId, count, from);
  await store.append(streamId, events, revision);
  return events.map((e) => e.eventId);
}

export function subscriptionContract(harness: () => EventStoreHarness): void {
  const store = () => harness().store;

  describe('subscribeToAll', () => {
    it('catches up on existing events, resolves caughtUp, then delivers new ones live, in order', async () => {
      const turn = newTurnStreamId();
      const before = await appendSome(store(), turn, 5);
      const seen: EventEnvelope[] = [];
      const subscription = store().subscribeToAll({ batchSize: 2 }, (e) => {
        seen.push(e);
      });
      await subscription.caughtUp;
      expect(ids(seen)).toEqual(before);

      const task = newTaskStreamId();
      const after = [...(await appendSome(store(), task, 2)), ...(await appendSome(store(), turn, 1))];
      await waitUntil(() => seen.length === 8, 'live events');
      expect(ids(seen)).toEqual([...before, ...after]);
      expect(subscription.position).toBe(seen[7].metadata.globalPosition);
      await subscription.stop();
      await expect(subscription.done).resolves.toBeUndefined();
    });

    it('sees appends made through another instance on the same storage', async () => {
      const other = await harness().openAnother();
      const seen: string[] = [];
      const subscription = store().subscribeToAll({ fromPosition: 'end' }, (e) => {
        seen.push(e.metadata.eventId);
      });
      await subscription.caughtUp;
      const appended = await appendSome(other, newTurnStreamId(), 3);
      await waitUntil(() => seen.length === 3, 'events from the other instance');
      expect(seen).toEqual(appended);
      await subscription.stop();
    });

    it('keeps a durable checkpoint per batch and on stop, and resumes after it when reopened', async () => {
      const turn = newTurnStreamId();
      const first = await appendSome(store(), turn, 3);
      const seen: string[] = [];
      const subscription = store().subscribeToAll({ subscriberId: 'projector.tasks', batchSize: 2 }, (e) => {
        seen.push(e.metadata.eventId);
      });
      await subscription.caughtUp;
      const head = await store().headPosition();
      const other = await harness().openAnother();
      expect(await other.getCheckpoint('projector.tasks')).toBe(head);
      await subscription.stop();
      expect(seen).toEqual(first);

      const later = await appendSome(other, turn, 2);
      await store().close();
      const resumed: string[] = [];
      const again = other.subscribeToAll({ subscriberId: 'projector.tasks' }, (e) => {
        resumed.push(e.metadata.eventId);
      });
      await again.caughtUp;
      expect(resumed).toEqual(later);
      await again.stop();
      expect(await other.getCheckpoint('projector.tasks')).toBe(await other.headPosition());
    });

    it('an explicit fromPosition overrides the stored checkpoint', async () => {
      const turn = newTurnStreamId();
      const events = await appendSome(store(), turn, 4);
      const all = await store().readAll();
      await store().saveCheckpoint('sub-a', all[3].metadata.globalPosition);
      const seen: string[] = [];
      const subscription = store().subscribeToAll(
        { subscriberId: 'sub-a', fromPosition: all[0].metadata.globalPosition },
        (e) => {
          seen.push(e.metadata.eventId);
        },
      );
      await subscription.caughtUp;
      await subscription.stop();
      expect(seen).toEqual(events.slice(1));
    });

    it("fromPosition 'end' delivers only events appended after subscribing", async () => {
      await appendSome(store(), newTurnStreamId(), 3);
      const seen: string[] = [];
      const subscription = store().subscribeToAll({ fromPosition: 'end' }, (e) => {
        seen.push(e.metadata.eventId);
      });
      const fresh = await appendSome(store(), newTaskStreamId(), 2);
      await subscription.caughtUp;
      await waitUntil(() => seen.length === 2, 'the new events');
      await subscription.stop();
      expect(seen).toEqual(fresh);
    });

    it('applies the filter to catch-up and live events, and catches up even when nothing matches', async () => {
      const ws1 = mainStreamId('ws1', 'u2');
      const noise = newTurnStreamId();
      await appendSome(store(), noise, 4);
      const m1 = userMessageReceived('one', undefined, 'u2');
      await store().append(ws1, [m1], 'any');
      const seen: string[] = [];
      const subscription = store().subscribeToAll(
        { filter: { streamPrefixes: ['main-ws1.'], eventTypes: ['UserMessageReceived'] }, batchSize: 1 },
        (e) => {
          seen.push(e.metadata.eventId);
        },
      );
      const none = store().subscribeToAll({ filter: { streamPrefixes: ['artifact-'] } }, () => {
        throw new Error('nothing should match');
      });
      await Promise.all([subscription.caughtUp, none.caughtUp]);
      await appendSome(store(), noise, 2);
      const m2 = userMessageReceived('two', undefined, 'u2');
      await store().append(ws1, [m2], 'any');
      await waitUntil(() => seen.length === 2, 'the second matching event');
      await Promise.all([subscription.stop(), none.stop()]);
      expect(seen).toEqual([m1.eventId, m2.eventId]);
      // Filtered-out events were passed over, so the position reached the head.
      expect(none.position).toBe(await store().headPosition());
    });

    it('a handler error ends the subscription: done rejects, the checkpoint keeps the last handled event', async () => {
      const events = await appendSome(store(), newTurnStreamId(), 5);
      const failure = new Error('projection failed');
      const handled: string[] = [];
      const subscription = store().subscribeToAll({ subscriberId: 'failing', batchSize: 10 }, (e) => {
        if (e.metadata.eventId === events[3]) throw failure;
        handled.push(e.metadata.eventId);
      });
      await expect(subscription.done).rejects.toBe(failure);
      await expect(subscription.caughtUp).rejects.toBe(failure);
      expect(handled).toEqual(events.slice(0, 3));
      const all = await store().readAll();
      expect(await store().getCheckpoint('failing')).toBe(all[2].metadata.globalPosition);
      await expect(subscription.stop()).resolves.toBeUndefined();
    });

    it('stop waits for the handler in flight and delivers nothing afterwards', async () => {
      await appendSome(store(), newTurnStreamId(), 2);
      let release: () => void = () => undefined;
      let calls = 0;
      const handled: string[] = [];
      const subscription = store().subscribeToAll({ subscriberId: 'slow' }, async (e) => {
        calls += 1;
        await new Promise<void>((resolve) => {
          release = resolve;
        });
        handled.push(e.metadata.eventId);
      });
      await waitUntil(() => calls === 1, 'the first handler call');
      let stopped = false;
      const stopping = subscription.stop().then(() => {
        stopped = true;
      });
      await new Promise((resolve) => setTimeout(resolve, 30));
      expect(stopped).toBe(false);
      release();
      await stopping;
      expect(handled).toHaveLength(1);
      await appendSome(store(), newTurnStreamId(), 1);
      await new Promise((resolve) => setTimeout(resolve, 60));
      expect(calls).toBe(1);
      const all = await store().readAll();
      expect(await store().getCheckpoint('slow')).toBe(all[0].metadata.globalPosition);
    });

    it('saves and reads checkpoints directly; an unknown subscriber has none', async () => {
      await appendSome(store(), newTurnStreamId(), 2);
      const head = await store().headPosition();
      expect(await store().getCheckpoint('nobody')).toBeUndefined();
      await store().saveCheckpoint('ops.replay', head as string);
      expect(await store().getCheckpoint('ops.replay')).toBe(head);
    });
  });
}
