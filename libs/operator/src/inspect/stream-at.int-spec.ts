import { randomUUID } from 'node:crypto';
import { streams, type EventEnvelope } from '@lomo/contracts';
import { taskDecider, turnDecider, type TaskEvent, type TurnEvent } from '@lomo/domain';
import {
  BadOperatorInputError,
  BadPositionError,
  OperatorRoleRequiredError,
  UnknownStreamError,
  WorkspaceForbiddenError,
} from '../errors';
import { callerOf, InspectionWorld, tellTaskStory, type TaskStory } from '../testing';
import { readForgottenIds, redactForgotten } from './redact-forgotten';
import { readStreamAt } from './stream-at';
import { parseStreamPoint } from './stream-point';

// Time travel on a real SQLite log: the state at each point is the aggregate's own fold of the
// events up to it, whichever way the point is given.

const operator = callerOf('operator', 'ops', 'root');

const manualFold = <S, E>(decider: { initialState: () => S; evolve: (s: S, e: E) => S }, events: EventEnvelope[]) =>
  events.reduce(
    (state, e) => decider.evolve(state, { type: e.type, data: e.data, recordedBy: e.metadata.actor } as E),
    decider.initialState(),
  );

describe('readStreamAt', () => {
  let world: InspectionWorld;
  let story: TaskStory;

  beforeEach(async () => {
    world = InspectionWorld.open();
    story = await tellTaskStory(world);
  });
  afterEach(() => world.close());

  it('folds the task stream at every revision exactly as the task decider does (forgotten texts redacted first)', async () => {
    const streamId = streams.task(story.taskId);
    const forgotten = await readForgottenIds(world.sources);
    const all = (await world.events.readStream(streamId)).map((e) => redactForgotten(e, forgotten));
    for (const e of all) {
      const at = await readStreamAt(world.sources, operator, streamId, {
        kind: 'revision',
        revision: e.metadata.revision,
      });
      const upTo = all.slice(0, e.metadata.revision + 1);
      expect(at).toMatchObject({
        revision: e.metadata.revision,
        position: e.metadata.globalPosition,
        headRevision: all.length - 1,
        folded: true,
        category: 'task',
        workspaceId: 'ws1',
      });
      expect(at.events).toEqual(upTo);
      expect(at.state).toEqual(manualFold<unknown, TaskEvent>(taskDecider as never, upTo));
    }
  });

  it('folds a turn by revision, global position and time alike', async () => {
    const streamId = streams.turn(story.turns[0]);
    const all = await world.events.readStream(streamId);
    for (const e of all) {
      const expected = manualFold<unknown, TurnEvent>(turnDecider as never, all.slice(0, e.metadata.revision + 1));
      const points = [
        parseStreamPoint(String(e.metadata.revision)),
        parseStreamPoint(`pos:${e.metadata.globalPosition}`),
        parseStreamPoint(e.metadata.occurredAt),
      ];
      for (const point of points) {
        const at = await readStreamAt(world.sources, operator, streamId, point);
        expect(at.revision).toBe(e.metadata.revision);
        expect(at.state).toEqual(expected);
      }
    }
    // Between two events (the log's clock moves a second per append): the earlier one.
    const between = new Date(Date.parse(all[1].metadata.occurredAt) + 500).toISOString();
    expect((await readStreamAt(world.sources, operator, streamId, { kind: 'time', time: between })).revision).toBe(1);
  });

  it('reads the whole stream without a point, its state as JSON would print it', async () => {
    const streamId = streams.generation(story.jobId);
    await world.append(streamId, 'GenerationSubmitted', { upstreamJobId: 'up-1', submittedAt: world.clock });
    await world.append(streamId, 'GenerationProgressed', {
      progress: 40,
      status: 'processing',
      source: 'callback',
      callbackEventId: 'cb-1',
      observedAt: world.clock,
    });
    const at = await readStreamAt(world.sources, operator, streamId);
    expect(at).toMatchObject({ revision: 2, headRevision: 2, folded: true, category: 'generation' });
    expect(at.state).toMatchObject({
      status: 'submitted',
      jobId: story.jobId,
      upstreamJobId: 'up-1',
      callbackEventIds: ['cb-1'],
    });
    expect(JSON.parse(JSON.stringify(at.state))).toEqual(at.state);
  });

  it('returns no state for a stream without a decider', async () => {
    await world.append(
      streams.operator('ops'),
      'OperatorActionRecorded',
      {
        actionId: randomUUID(),
        action: 'projections_rebuilt',
        operator: { userId: 'root', tokenId: 't1', tokenName: 'ops' },
        via: { tool: 'cli', command: 'projections rebuild' },
        outcome: 'completed',
        details: {},
        recordedAt: world.clock,
      },
      { workspaceId: 'ops' },
    );
    const at = await readStreamAt(world.sources, operator, streams.operator('ops'));
    expect(at).toMatchObject({ state: null, folded: false, revision: 0 });
    await expect(
      readStreamAt(world.sources, callerOf('person', 'ops', 'root'), streams.operator('ops')),
    ).rejects.toBeInstanceOf(OperatorRoleRequiredError);
  });

  it('refuses points it cannot place', async () => {
    const streamId = streams.task(story.taskId);
    const all = await world.events.readStream(streamId);
    const head = all.length - 1;
    const beyond = readStreamAt(world.sources, operator, streamId, { kind: 'revision', revision: head + 1 });
    await expect(beyond).rejects.toBeInstanceOf(BadPositionError);
    await expect(beyond).rejects.toThrow(`revision ${head}`);
    await expect(
      readStreamAt(world.sources, operator, streamId, { kind: 'revision', revision: -1 }),
    ).rejects.toBeInstanceOf(BadPositionError);
    await expect(
      readStreamAt(world.sources, operator, streamId, { kind: 'position', position: '0' }),
    ).rejects.toBeInstanceOf(BadPositionError);
    await expect(
      readStreamAt(world.sources, operator, streamId, { kind: 'position', position: '12:7' }),
    ).rejects.toBeInstanceOf(BadPositionError);
    const before = new Date(Date.parse(all[0].metadata.occurredAt) - 1).toISOString();
    await expect(
      readStreamAt(world.sources, operator, streamId, { kind: 'time', time: before }),
    ).rejects.toBeInstanceOf(BadPositionError);
  });

  it('refuses an unknown or malformed stream', async () => {
    await expect(readStreamAt(world.sources, operator, streams.task(randomUUID()))).rejects.toBeInstanceOf(
      UnknownStreamError,
    );
    await expect(readStreamAt(world.sources, operator, 'not a stream')).rejects.toBeInstanceOf(BadOperatorInputError);
  });

  it('refuses another workspace to a person, and another person’s private stream even in the same workspace', async () => {
    const task = streams.task(story.taskId);
    await expect(readStreamAt(world.sources, callerOf('person', 'ws2', 'u1'), task)).rejects.toBeInstanceOf(
      WorkspaceForbiddenError,
    );
    await expect(
      readStreamAt(world.sources, callerOf('person', 'ws1', 'u2'), streams.main('ws1', 'u1')),
    ).rejects.toBeInstanceOf(WorkspaceForbiddenError);
    // Decided from the id alone: an absent private stream is refused the same way, not "unknown".
    await expect(
      readStreamAt(world.sources, callerOf('person', 'ws1', 'u2'), streams.main('ws1', 'u9')),
    ).rejects.toBeInstanceOf(WorkspaceForbiddenError);
    expect((await readStreamAt(world.sources, callerOf('person', 'ws1', 'u1'), streams.main('ws1', 'u1'))).folded).toBe(
      true,
    );
    expect((await readStreamAt(world.sources, callerOf('person', 'ws1', 'u2'), task)).folded).toBe(true);
  });

  it('folds nothing for an integration that may see only part of a stream', async () => {
    const at = await readStreamAt(world.sources, callerOf('integration', 'ws1', 'bot'), streams.task(story.taskId));
    expect(at).toMatchObject({ state: null, folded: false });
    expect(at.events.map((e) => e.type)).not.toContain('MessageDeliveredToInbox');
  });
});
