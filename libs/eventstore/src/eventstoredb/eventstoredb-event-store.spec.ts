import { randomUUID } from 'node:crypto';
import { AccessDeniedError, UnavailableError } from '@eventstore/db-client';
import { ConcurrencyError } from '@lomo/contracts';
import { checklistItemChanged, newTaskStreamId, newTurnStreamId, sampleEventsFor } from '../testing/sample-events';
import { waitUntil } from '../testing/wait-until';
import { parsePosition } from './esdb-position';
import { EventStoreDbEventStore } from './eventstoredb-event-store';
import { FakeEsdbServer } from './testing/fake-esdb-server';

/** The adapter against the fake client where the fake behaves as a real server does. */
describe('EventStoreDbEventStore on a fake client', () => {
  let server: FakeEsdbServer;
  let store: EventStoreDbEventStore;
  beforeEach(() => {
    server = new FakeEsdbServer({ projections: true });
    store = new EventStoreDbEventStore({ client: server.client(), idleCheckpointMs: 10 });
  });
  afterEach(() => store.close());

  it('writes an id already used in another stream, as EventStoreDB does (SQLite refuses it)', async () => {
    const event = checklistItemChanged(1);
    const [first, second] = [newTaskStreamId(), newTaskStreamId()];
    await store.append(first, [event], 'any');
    await expect(store.append(second, [event], 'no_stream')).resolves.toMatchObject({ written: true });
    expect((await store.readStream(second)).map((e) => e.metadata.eventId)).toEqual([event.eventId]);
  });

  it("refuses, as a conflict, ids the server accepts under 'any' although they are not contiguous", async () => {
    const streamId = newTaskStreamId();
    const [a, b] = sampleEventsFor(streamId, 2);
    await store.append(streamId, [a], 'no_stream');
    await store.append(streamId, [checklistItemChanged(5)], 0);
    await store.append(streamId, [b], 1);
    const error: unknown = await store.append(streamId, [a, b], 'any').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConcurrencyError);
    expect(error).toMatchObject({ streamId, expected: 'any', actual: 2 });
    expect(await store.streamRevision(streamId)).toBe(2);
  });

  it('keeps positions past 2^53 exact from append to readAll and back', async () => {
    const streamId = newTurnStreamId();
    const { position } = await store.append(streamId, sampleEventsFor(streamId, 3), 'no_stream');
    expect(parsePosition(position).commit > 1n << 53n).toBe(true);
    const all = await store.readAll();
    expect(all[all.length - 1].metadata.globalPosition).toBe(position);
    const afterFirst = await store.readAll({ fromPosition: all[0].metadata.globalPosition });
    expect(afterFirst.map((e) => e.metadata.revision)).toEqual([1, 2]);
  });

  it('never returns system events, projection links or events of other applications', async () => {
    server.writeRaw(`orders-${randomUUID()}`, [{ type: 'OrderPlaced', data: {}, metadata: {} }]);
    const streamId = newTurnStreamId();
    await store.append(streamId, sampleEventsFor(streamId, 2), 'no_stream');
    await store.saveCheckpoint('ops', (await store.headPosition()) as string);
    server.writeRaw('$stats-127.0.0.1:2113', [{ type: '$statsCollected', data: {}, metadata: {} }]);
    const all = await store.readAll();
    expect(all.map((e) => e.metadata.streamId)).toEqual([streamId, streamId]);
    // The head is the store's last event, not the metadata, link or stats events after it.
    expect(await store.headPosition()).toBe(all[1].metadata.globalPosition);
  });

  it('reads an event of its own streams that it did not write as a STORE_FAILED error, not as data', async () => {
    const streamId = newTaskStreamId();
    server.writeRaw(streamId, [{ type: 'TaskCreated', data: { taskId: 'x' }, metadata: { correlationId: 'c' } }]);
    await expect(store.readStream(streamId)).rejects.toMatchObject({ code: 'STORE_FAILED' });
  });

  it('translates client failures into typed errors on every path', async () => {
    const streamId = newTurnStreamId();
    server.failNextCall(new UnavailableError());
    await expect(store.append(streamId, sampleEventsFor(streamId, 1), 'no_stream')).rejects.toMatchObject({
      code: 'STORE_UNAVAILABLE',
      retriable: true,
    });
    server.failNextCall(new UnavailableError());
    await expect(store.readAll()).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE' });
    server.failNextCall(new AccessDeniedError());
    await expect(store.getCheckpoint('projector')).rejects.toMatchObject({
      code: 'STORE_ACCESS_DENIED',
      retriable: false,
    });
  });

  it('ends a subscription whose connection drops with a retriable error, keeping its checkpoint', async () => {
    const streamId = newTurnStreamId();
    await store.append(streamId, sampleEventsFor(streamId, 2), 'no_stream');
    const subscription = store.subscribeToAll({ subscriberId: 'relay' }, () => undefined);
    await subscription.caughtUp;
    server.dropSubscriptions(new UnavailableError());
    await expect(subscription.done).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE', retriable: true });
    expect(await store.getCheckpoint('relay')).toBe(await store.headPosition());
  });

  it('saves a durable position once the feed goes idle, not only on stop', async () => {
    const subscription = store.subscribeToAll({ subscriberId: 'idle', batchSize: 100 }, () => undefined);
    await subscription.caughtUp;
    const streamId = newTurnStreamId();
    await store.append(streamId, sampleEventsFor(streamId, 1), 'no_stream');
    const head = await store.headPosition();
    await waitUntil(async () => (await store.getCheckpoint('idle')) === head, 'the idle checkpoint');
    await subscription.stop();
  });

  it('is unavailable once closed', async () => {
    await store.close();
    expect(() => store.subscribeToAll({}, () => undefined)).toThrow(
      expect.objectContaining({ code: 'STORE_UNAVAILABLE' }),
    );
    await expect(store.readStream(newTaskStreamId())).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE' });
  });
});
