import { ConcurrencyError, type ExpectedRevision } from '@lomo/contracts';
import type { EventStoreHarness } from '../event-store-harness';
import { newTaskStreamId, newTurnStreamId, sampleEventsFor } from '../sample-events';

export function appendContract(harness: () => EventStoreHarness): void {
  const store = () => harness().store;

  describe('append and read back', () => {
    it('keeps type, data and write metadata, and adds stream, revision, position, time and schema version', async () => {
      const streamId = newTurnStreamId();
      const events = sampleEventsFor(streamId, 2);
      const result = await store().append(streamId, events, 'no_stream');
      expect(result).toEqual({ streamId, nextExpectedRevision: 1, position: expect.any(String), written: true });

      const read = await store().readStream(streamId);
      expect(read.map((e) => e.type)).toEqual(['TurnStarted', 'TurnLeased']);
      expect(read.map((e) => e.data)).toEqual(events.map((e) => e.data));
      expect(read[1].metadata).toEqual({
        ...events[1].metadata,
        eventId: events[1].eventId,
        streamId,
        revision: 1,
        globalPosition: result.position,
        occurredAt: expect.any(String),
        schemaVersion: 1,
      });
      expect(Number.isNaN(Date.parse(read[0].metadata.occurredAt))).toBe(false);
    });

    it('numbers revisions contiguously from 0 across appends', async () => {
      const streamId = newTaskStreamId();
      const sizes = [1, 3, 2];
      const nextRevisions: number[] = [];
      let expected: ExpectedRevision = 'no_stream';
      let written = 0;
      for (const size of sizes) {
        const result = await store().append(streamId, sampleEventsFor(streamId, size, written), expected);
        written += size;
        nextRevisions.push(result.nextExpectedRevision);
        expected = result.nextExpectedRevision;
      }
      expect(nextRevisions).toEqual([0, 3, 5]);
      expect((await store().readStream(streamId)).map((e) => e.metadata.revision)).toEqual([0, 1, 2, 3, 4, 5]);
      expect(await store().streamRevision(streamId)).toBe(5);
    });

    it('returns the position of the last appended event, which is then the head', async () => {
      const streamId = newTurnStreamId();
      const result = await store().append(streamId, sampleEventsFor(streamId, 3), 'no_stream');
      const read = await store().readStream(streamId);
      expect(read[2].metadata.globalPosition).toBe(result.position);
      expect(await store().headPosition()).toBe(result.position);
    });
  });

  describe('expected revision', () => {
    const cases: Array<{ name: string; existing: number; expected: ExpectedRevision; actual?: number | 'no_stream' }> =
      [
        { name: 'no_stream on an absent stream succeeds', existing: 0, expected: 'no_stream' },
        { name: 'no_stream on an existing stream conflicts', existing: 2, expected: 'no_stream', actual: 1 },
        {
          name: 'stream_exists on an absent stream conflicts',
          existing: 0,
          expected: 'stream_exists',
          actual: 'no_stream',
        },
        { name: 'stream_exists on an existing stream succeeds', existing: 2, expected: 'stream_exists' },
        { name: 'any on an absent stream succeeds', existing: 0, expected: 'any' },
        { name: 'any on an existing stream succeeds', existing: 2, expected: 'any' },
        { name: 'the exact last revision succeeds', existing: 2, expected: 1 },
        { name: 'a stale revision conflicts', existing: 3, expected: 1, actual: 2 },
        { name: 'a revision ahead of the stream conflicts', existing: 1, expected: 4, actual: 0 },
        { name: 'revision 0 on an absent stream conflicts', existing: 0, expected: 0, actual: 'no_stream' },
      ];

    it.each(cases)('$name', async ({ existing, expected, actual }) => {
      const streamId = newTaskStreamId();
      if (existing > 0) await store().append(streamId, sampleEventsFor(streamId, existing), 'no_stream');
      const attempt = store().append(streamId, sampleEventsFor(streamId, 1, existing), expected);

      if (actual === undefined) {
        await expect(attempt).resolves.toMatchObject({ written: true, nextExpectedRevision: existing });
        return;
      }
      const error: unknown = await attempt.catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConcurrencyError);
      expect(error).toMatchObject({ code: 'CONCURRENCY_CONFLICT', retriable: false, streamId, expected, actual });
      expect(await store().readStream(streamId)).toHaveLength(existing);
    });
  });
}
