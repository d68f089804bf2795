import { streams, type EventEnvelope } from '@lomo/contracts';
import { BadOperatorInputError, BadPositionError, WorkspaceForbiddenError } from '../errors';
import { callerOf, InspectionWorld } from '../testing';
import { tailEvents, type TailFilter, type TailOptions } from './tail-events';

// lomo events tail on a real SQLite log: narrowed in the store, checked per event, every event
// passed through the visibility policy.

const operator = callerOf('operator', 'ops', 'root');
const message = (text: string, userId = 'u1') => ({
  messageId: '7d2a9c1e-3f4b-4a5c-9d6e-1f2a3b4c5d6e',
  userId,
  text,
  language: 'en',
  channel: 'ui',
});

describe('tailEvents', () => {
  let world: InspectionWorld;
  const collect = async (caller = operator, filter: TailFilter = {}, options: TailOptions = {}) => {
    const out: EventEnvelope[] = [];
    for await (const e of tailEvents(world.sources, caller, filter, options)) out.push(e);
    return out;
  };
  const ids = (events: EventEnvelope[]) =>
    events.map((e) => `${e.metadata.streamId}:${(e.data as { text?: string }).text ?? e.type}`);

  beforeEach(async () => {
    world = InspectionWorld.open();
    await world.append(streams.main('ws1', 'u1'), 'UserMessageReceived', message('one'));
    await world.append(streams.main('ws1', 'u10'), 'UserMessageReceived', message('ten', 'u10'));
    await world.append(streams.main('ws2', 'u1'), 'UserMessageReceived', message('other workspace'), {
      workspaceId: 'ws2',
    });
    await world.append(streams.turn('5f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f'), 'TurnStarted', {
      turnId: '5f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f',
      taskId: '0b9c6f3e-8a51-4d7e-9a35-2f7c1d4e5a60',
      reason: 'message',
    });
    await world.append(streams.main('ws1', 'u1'), 'UserMessageReceived', message('two'));
  });
  afterEach(() => world.close());

  it('reads the whole log in order for an operator, and at most `limit` events from a position', async () => {
    const all = await collect();
    expect(ids(all)).toEqual([
      'main-ws1.u1:one',
      'main-ws1.u10:ten',
      'main-ws2.u1:other workspace',
      `turn-5f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f:TurnStarted`,
      'main-ws1.u1:two',
    ]);
    const page = await collect(operator, { fromPosition: all[0].metadata.globalPosition }, { limit: 2 });
    expect(page).toEqual(all.slice(1, 3));
  });

  it('filters by exact stream (not its prefix siblings), by type and by workspace', async () => {
    expect(ids(await collect(operator, { streamId: streams.main('ws1', 'u1') }))).toEqual([
      'main-ws1.u1:one',
      'main-ws1.u1:two',
    ]);
    expect(ids(await collect(operator, { type: 'TurnStarted' }))).toEqual([
      `turn-5f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f:TurnStarted`,
    ]);
    expect(ids(await collect(operator, { workspaceId: 'ws2' }))).toEqual(['main-ws2.u1:other workspace']);
  });

  it('shows a person their own main line and the shared streams of their workspace only', async () => {
    expect(ids(await collect(callerOf('person', 'ws1', 'u1')))).toEqual([
      'main-ws1.u1:one',
      `turn-5f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f:TurnStarted`,
      'main-ws1.u1:two',
    ]);
    await expect(collect(callerOf('person', 'ws1', 'u1'), { workspaceId: 'ws2' })).rejects.toBeInstanceOf(
      WorkspaceForbiddenError,
    );
    await expect(
      collect(callerOf('person', 'ws1', 'u2'), { streamId: streams.main('ws1', 'u1') }),
    ).rejects.toBeInstanceOf(WorkspaceForbiddenError);
  });

  it('refuses a malformed stream id, limit or position', async () => {
    await expect(collect(operator, { streamId: 'no stream' })).rejects.toBeInstanceOf(BadOperatorInputError);
    await expect(collect(operator, {}, { limit: -1 })).rejects.toBeInstanceOf(BadOperatorInputError);
    await expect(collect(operator, { fromPosition: 'abc' })).rejects.toBeInstanceOf(BadPositionError);
  });

  it('follows: after catching up it yields what is appended later, until aborted', async () => {
    const abort = new AbortController();
    const seen: string[] = [];
    const following = (async () => {
      for await (const e of tailEvents(
        world.sources,
        operator,
        { streamId: streams.main('ws1', 'u1') },
        { follow: true, pollMs: 10, signal: abort.signal },
      )) {
        seen.push((e.data as { text: string }).text);
        if (seen.length === 2) await world.append(streams.main('ws1', 'u1'), 'UserMessageReceived', message('three'));
        if (seen.length === 3) abort.abort();
      }
    })();
    await following;
    expect(seen).toEqual(['one', 'two', 'three']);
  });
});
