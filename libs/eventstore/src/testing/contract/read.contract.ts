import type { EventEnvelope } from '@lomo/contracts';
import type { EventFilter } from '../../event-store.port';
import type { EventStoreHarness } from '../event-store-harness';
import { mainStreamId, newTaskStreamId, newTurnStreamId, sampleEventsFor, userMessageReceived } from '../sample-events';

const revisions = (events: EventEnvelope[]) => events.map((e) => e.metadata.revision);
const ids = (events: EventEnvelope[]) => events.map((e) => e.metadata.eventId);

export function readContract(harness: () => EventStoreHarness): void {
  const store = () => harness().store;

  describe('readStream', () => {
    let streamId: string;
    beforeEach(async () => {
      streamId = newTaskStreamId();
      await store().append(streamId, sampleEventsFor(streamId, 6), 'no_stream');
    });

    it.each([
      ['forwards by default, from revision 0', {}, [0, 1, 2, 3, 4, 5]],
      ['forwards from a revision, inclusive', { fromRevision: 2 }, [2, 3, 4, 5]],
      ['forwards with maxCount', { fromRevision: 1, maxCount: 2 }, [1, 2]],
      ["forwards from 'start'", { fromRevision: 'start' as const, maxCount: 1 }, [0]],
      ["forwards from 'end' (the last event)", { fromRevision: 'end' as const }, [5]],
      ['backwards by default, from the last revision', { direction: 'backwards' as const }, [5, 4, 3, 2, 1, 0]],
      [
        'backwards from a revision, inclusive, with maxCount',
        { direction: 'backwards' as const, fromRevision: 3, maxCount: 2 },
        [3, 2],
      ],
      [
        "backwards from 'start' (the first event)",
        { direction: 'backwards' as const, fromRevision: 'start' as const },
        [0],
      ],
      ['past the end', { fromRevision: 9 }, []],
      ['maxCount 0', { maxCount: 0 }, []],
    ])('%s', async (_name, options, expected) => {
      expect(revisions(await store().readStream(streamId, options))).toEqual(expected);
    });

    it('reads an absent stream as empty, with no revision', async () => {
      const absent = newTurnStreamId();
      expect(await store().readStream(absent)).toEqual([]);
      expect(await store().readStream(absent, { direction: 'backwards' })).toEqual([]);
      expect(await store().streamRevision(absent)).toBe('no_stream');
    });
  });

  describe('readAll', () => {
    const ws1 = mainStreamId('ws1', 'u1');
    const ws2 = mainStreamId('ws2', 'u1');
    let turn: string;
    let task: string;
    let appended: string[];

    beforeEach(async () => {
      turn = newTurnStreamId();
      task = newTaskStreamId();
      appended = [];
      // Interleaved across streams, so global order differs from any one stream's order.
      const plan: Array<[string, number, number]> = [
        [turn, 0, 1],
        [task, 0, 2],
        [ws1, 0, 1],
        [turn, 1, 2],
        [ws2, 0, 1],
        [task, 2, 1],
        [ws1, 1, 2],
      ];
      for (const [streamId, from, count] of plan) {
        const events = streamId.startsWith('main-')
          ? Array.from({ length: count }, (_, i) => userMessageReceived(`m${from + i}`))
          : sampleEventsFor(streamId, count, from);
        await store().append(streamId, events, from === 0 ? 'no_stream' : from - 1);
        appended.push(...events.map((e) => e.eventId));
      }
    });

    it('returns every event in global (append) order, each stream in revision order', async () => {
      const all = await store().readAll();
      expect(ids(all)).toEqual(appended);
      expect(new Set(all.map((e) => e.metadata.globalPosition)).size).toBe(all.length);
      for (const streamId of [turn, task, ws1, ws2]) {
        const own = all.filter((e) => e.metadata.streamId === streamId);
        expect(revisions(own)).toEqual(own.map((_, i) => i));
      }
      expect(await store().headPosition()).toBe(all[all.length - 1].metadata.globalPosition);
      expect(await store().readAll({ fromPosition: 'start' })).toEqual(all);
    });

    it.each<[string, EventFilter, (e: EventEnvelope) => boolean]>([
      ['one stream prefix', { streamPrefixes: ['main-ws1.'] }, (e) => e.metadata.streamId.startsWith('main-ws1.')],
      [
        'several prefixes (any matches)',
        { streamPrefixes: ['task-', 'main-ws2.'] },
        (e) => /^(task-|main-ws2\.)/.test(e.metadata.streamId),
      ],
      [
        'event types',
        { eventTypes: ['TurnLeased', 'ChecklistItemChanged'] },
        (e) => ['TurnLeased', 'ChecklistItemChanged'].includes(e.type),
      ],
      [
        'prefixes AND types',
        { streamPrefixes: ['turn-', 'main-'], eventTypes: ['TurnStarted', 'UserMessageReceived'] },
        (e) => ['TurnStarted', 'UserMessageReceived'].includes(e.type),
      ],
      ['a prefix no stream has', { streamPrefixes: ['artifact-'] }, () => false],
      ['empty lists (no constraint)', { streamPrefixes: [], eventTypes: [] }, () => true],
    ])('filters by %s, keeping global order', async (_name, filter, matches) => {
      const all = await store().readAll();
      const filtered = await store().readAll({ filter });
      expect(ids(filtered)).toEqual(ids(all.filter(matches)));
    });

    it('stops at maxCount and resumes exactly after a returned position', async () => {
      const all = await store().readAll();
      const pages: EventEnvelope[][] = [];
      let from: string | undefined;
      for (;;) {
        const page = await store().readAll({ fromPosition: from, maxCount: 3 });
        if (page.length === 0) break;
        expect(page.length).toBeLessThanOrEqual(3);
        pages.push(page);
        from = page[page.length - 1].metadata.globalPosition;
      }
      expect(pages.flat()).toEqual(all);
      expect(await store().readAll({ fromPosition: await store().headPosition() })).toEqual([]);
    });

    it('resumes a filtered read after a returned position', async () => {
      const filter = { streamPrefixes: ['main-'] };
      const expected = ids(await store().readAll({ filter }));
      const first = await store().readAll({ filter, maxCount: 2 });
      const rest = await store().readAll({ filter, fromPosition: first[1].metadata.globalPosition });
      expect([...ids(first), ...ids(rest)]).toEqual(expected);
    });
  });

  it('an empty store has no head and reads nothing', async () => {
    expect(await store().headPosition()).toBeUndefined();
    expect(await store().readAll()).toEqual([]);
  });
}
