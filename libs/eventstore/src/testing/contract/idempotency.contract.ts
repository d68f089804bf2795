import { randomUUID } from 'node:crypto';
import { ConcurrencyError, type NewEvent } from '@lomo/contracts';
import type { EventStore } from '../../event-store.port';
import type { EventStoreHarness } from '../event-store-harness';
import { checklistItemChanged, newTaskStreamId, sampleEventsFor } from '../sample-events';

/** The EventStoreDB rule, which the port documents: repeats are recognised only as it says. */
export function idempotencyContract(
  harness: () => EventStoreHarness,
  options: { uniqueIdsAcrossStreams: boolean } = { uniqueIdsAcrossStreams: true },
): void {
  const store = () => harness().store;

  async function storeSnapshot(s: EventStore) {
    return { head: await s.headPosition(), count: (await s.readAll()).length };
  }

  async function expectConflictWritingNothing(
    streamId: string,
    events: NewEvent[],
    expected: Parameters<EventStore['append']>[2],
  ) {
    const before = await storeSnapshot(store());
    const error: unknown = await store()
      .append(streamId, events, expected)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConcurrencyError);
    expect(error).toMatchObject({ code: 'CONCURRENCY_CONFLICT', streamId, expected });
    expect(await storeSnapshot(store())).toEqual(before);
  }

  describe('idempotent re-append', () => {
    it('a repeat under the same no_stream expectation writes nothing and returns the first result', async () => {
      const streamId = newTaskStreamId();
      const events = sampleEventsFor(streamId, 3);
      const first = await store().append(streamId, events, 'no_stream');
      const repeat = await store().append(streamId, events, 'no_stream');
      expect(repeat).toEqual({ ...first, written: false });
      expect(await store().readStream(streamId)).toHaveLength(3);
    });

    it('a repeat under the same numeric expectation is recognised even after the stream moved on', async () => {
      const streamId = newTaskStreamId();
      await store().append(streamId, sampleEventsFor(streamId, 2), 'no_stream');
      const events = [checklistItemChanged(2), checklistItemChanged(3)];
      const first = await store().append(streamId, events, 1);
      await store().append(streamId, [checklistItemChanged(4)], 3);

      const repeat = await store().append(streamId, events, 1);
      expect(repeat).toEqual({ ...first, written: false });
      expect((await store().readStream(streamId)).map((e) => e.metadata.eventId)).toHaveLength(5);
    });

    it.each(['any', 'stream_exists'] as const)(
      'a repeat under %s is recognised wherever the ids are, contiguous',
      async (expected) => {
        const streamId = newTaskStreamId();
        const events = sampleEventsFor(streamId, 2);
        const first = await store().append(streamId, events, 'no_stream');
        await store().append(streamId, [checklistItemChanged(9)], 'any');
        expect(await store().append(streamId, events, expected)).toEqual({ ...first, written: false });
        expect(await store().readStream(streamId)).toHaveLength(3);
      },
    );

    it('the same ids under another exact expectation are a conflict', async () => {
      const streamId = newTaskStreamId();
      const events = sampleEventsFor(streamId, 2);
      await store().append(streamId, events, 'no_stream');
      await expectConflictWritingNothing(streamId, events, 0);
    });

    it('a partial overlap with stored ids is a conflict and writes nothing, whatever the expectation', async () => {
      const streamId = newTaskStreamId();
      const events = sampleEventsFor(streamId, 2);
      await store().append(streamId, events, 'no_stream');
      const overlapping = [events[1], checklistItemChanged(7)];
      await expectConflictWritingNothing(streamId, overlapping, 0);
      await expectConflictWritingNothing(streamId, overlapping, 'any');
      await expectConflictWritingNothing(streamId, [...events, checklistItemChanged(8)], 'no_stream');
    });

    // Registered only where ids are unique store-wide (EventStoreDB checks them per stream).
    if (options.uniqueIdsAcrossStreams) {
      it('ids stored in another stream are a conflict and write nothing', async () => {
        const first = newTaskStreamId();
        const second = newTaskStreamId();
        const event = checklistItemChanged(1);
        await store().append(first, [event], 'any');
        await expectConflictWritingNothing(second, [event], 'any');
        await expectConflictWritingNothing(second, [event], 'no_stream');
      });
    }

    it('the same id twice in one call is refused as invalid', async () => {
      const streamId = newTaskStreamId();
      const eventId = randomUUID();
      await expect(
        store().append(streamId, [checklistItemChanged(1, eventId), checklistItemChanged(2, eventId)], 'any'),
      ).rejects.toMatchObject({
        code: 'VALIDATION_FAILED',
      });
      expect(await store().streamRevision(streamId)).toBe('no_stream');
    });
  });
}
