import type { ExpectedRevision, NewEvent } from '@lomo/contracts';
import type { EventStoreHarness } from '../event-store-harness';
import {
  checklistItemChanged,
  newTaskStreamId,
  newTurnStreamId,
  sampleMetadata,
  taskCreated,
  turnLeased,
  turnStarted,
} from '../sample-events';

interface BadAppend {
  name: string;
  code: string;
  build: (streamId: string) => { streamId?: string; events: NewEvent[]; expected?: ExpectedRevision };
}

const badAppends: BadAppend[] = [
  {
    name: 'data that breaks the schema',
    code: 'INVALID_EVENT',
    build: (s) => ({ events: [{ ...turnStarted(s), data: { turnId: 'not-a-uuid', reason: 'message' } }] }),
  },
  {
    name: 'one invalid event in the middle of a batch',
    code: 'INVALID_EVENT',
    build: (s) => ({ events: [turnStarted(s), { ...turnLeased(1), data: { generation: 0 } }, turnLeased(2)] }),
  },
  {
    name: 'an unknown event type',
    code: 'UNKNOWN_EVENT_TYPE',
    build: (s) => ({ events: [{ ...turnStarted(s), type: 'TurnExploded' }] }),
  },
  {
    name: 'an event of another stream category',
    code: 'WRONG_STREAM_CATEGORY',
    build: (s) => ({ events: [turnStarted(s), taskCreated(newTaskStreamId())] }),
  },
  {
    name: 'invalid metadata',
    code: 'INVALID_EVENT',
    build: (s) => ({ events: [{ ...turnStarted(s), metadata: sampleMetadata({ workspaceId: 'Not A Slug' }) }] }),
  },
  {
    name: 'an event id that is not a UUID',
    code: 'VALIDATION_FAILED',
    build: (s) => ({ events: [{ ...turnStarted(s), eventId: 'e-1' }] }),
  },
  {
    name: 'an invalid stream id',
    code: 'INVALID_STREAM_ID',
    build: () => ({ streamId: 'Turn_1', events: [checklistItemChanged(1)] }),
  },
  { name: 'an empty batch', code: 'VALIDATION_FAILED', build: () => ({ events: [] }) },
  {
    name: 'a negative expected revision',
    code: 'VALIDATION_FAILED',
    build: (s) => ({ events: [turnStarted(s)], expected: -1 }),
  },
  {
    name: 'a fractional expected revision',
    code: 'VALIDATION_FAILED',
    build: (s) => ({ events: [turnStarted(s)], expected: 0.5 }),
  },
];

export function invalidInputContract(harness: () => EventStoreHarness): void {
  const store = () => harness().store;

  describe('invalid input is refused with a typed error and changes nothing', () => {
    it.each(badAppends)('append with $name -> $code', async ({ code, build }) => {
      const existing = newTurnStreamId();
      await store().append(existing, [turnStarted(existing)], 'no_stream');
      const headBefore = await store().headPosition();
      const fresh = newTurnStreamId();

      for (const target of [fresh, existing]) {
        const { streamId = target, events, expected = 'any' } = build(target);
        await expect(store().append(streamId, events, expected)).rejects.toMatchObject({ code, retriable: false });
      }
      expect(await store().streamRevision(fresh)).toBe('no_stream');
      expect(await store().streamRevision(existing)).toBe(0);
      expect(await store().headPosition()).toBe(headBefore);
    });

    it.each([
      ['readStream with a negative maxCount', () => store().readStream(newTurnStreamId(), { maxCount: -1 })],
      ['readStream from a negative revision', () => store().readStream(newTurnStreamId(), { fromRevision: -2 })],
      ['readAll from a position this store never returned', () => store().readAll({ fromPosition: 'not a position' })],
      ['readAll with a fractional maxCount', () => store().readAll({ maxCount: 1.5 })],
    ])('%s -> VALIDATION_FAILED', async (_name, read) => {
      await expect(read()).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    });
  });
}
