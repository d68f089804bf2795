import { randomUUID } from 'node:crypto';
import { streams, type Actor, type EventEnvelope } from '@lomo/contracts';
import { BadPositionError } from '../errors';
import { ForkBeyondTaskError, StepNotCommittedError, TurnNotOfTaskError } from './fork-errors';
import { parseForkPoint } from './fork-point';
import { planFork, type ForkSource } from './plan-fork';

const TASK = '0b9c6f3e-8a51-4d7e-9a35-2f7c1d4e5a60';
const TURN = '5f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f';
const ITEM = '11111111-1111-4111-8111-111111111111';
const FORK = '4c3b2a19-0f8e-4d7c-9b6a-5e4d3c2b1a09';
const ACTION = '8e7d6c5b-4a39-4281-9f0e-1d2c3b4a5968';
const person: Actor = { kind: 'user', userId: 'u1' };
const agent: Actor = { kind: 'agent' };
const FORGETTING = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';

/** A task recorded as the runtime writes one: one turn whose step 1 asked for notes.create, then answered. */
function recorded(forgotten = false): ForkSource {
  let position = 0;
  const revisions = new Map<string, number>();
  const envelope = (streamId: string, type: string, data: unknown, actor: Actor = agent): EventEnvelope => {
    const revision = (revisions.get(streamId) ?? -1) + 1;
    revisions.set(streamId, revision);
    position += 1;
    return {
      type,
      data,
      metadata: {
        eventId: randomUUID(),
        streamId,
        revision,
        globalPosition: String(position),
        occurredAt: new Date(Date.UTC(2026, 0, 1, 0, 0, position)).toISOString(),
        schemaVersion: 1,
        correlationId: 'c',
        causationId: null,
        workspaceId: 'ws1',
        actor,
      },
    };
  };
  const task = (type: string, data: unknown, actor?: Actor) => envelope(streams.task(TASK), type, data, actor);
  const turn = (type: string, data: unknown) => envelope(streams.turn(TURN), type, data);
  const call = `${TURN}:1:0`;
  const events = [
    task('TaskCreated', { taskId: TASK, kind: 'persistent', goal: 'Notes', language: 'en', originMessageId: ITEM }),
    task('MessageDeliveredToInbox', { itemId: ITEM, messageId: ITEM, text: 'a note', language: 'en' }, person),
    task('TurnOpened', { turnId: TURN, reason: 'message' }),
    turn('TurnStarted', { turnId: TURN, taskId: TASK, reason: 'message' }),
    turn('TurnLeased', { workerId: 'w', generation: 1, leaseUntil: '2026-01-01T00:10:00.000Z' }),
    task('InboxItemsClaimed', { turnId: TURN, step: 1, itemIds: [ITEM] }),
    turn('ModelStepCommitted', {
      step: 1,
      reply: 'Creating it.',
      toolCallIntents: [{ callId: call, tool: 'notes.create', arguments: { title: 'a' } }],
      consumedItemIds: [ITEM],
      usage: { inputTokens: 1, outputTokens: 1 },
      promptRef: { hash: 'a'.repeat(64), bytes: 1 },
      finishReason: 'tool_calls',
    }),
    turn('ToolCallStarted', { callId: call, tool: 'notes.create', idempotencyKey: call, attempt: 1 }),
    turn('ToolCallCompleted', { callId: call, status: 'ok', result: { noteId: 'n1' } }),
    // With `forgotten`: the step also wrote the brief, and a forgetting later excluded the step.
    ...(forgotten ? [task('BriefUpdated', { version: 1, brief: 'Notes in cobalt', by: agent, callId: call })] : []),
    turn('TurnCompleted', { steps: 1 }),
    task('TurnClosed', { turnId: TURN, outcome: 'completed' }),
    ...(forgotten
      ? [
          task('ContextExcluded', {
            forgettingId: FORGETTING,
            messageIds: [ITEM],
            steps: [{ turnId: TURN, step: 1 }],
            calls: [call],
          }),
        ]
      : []),
  ];
  const of = (streamId: string) => events.filter((e) => e.metadata.streamId === streamId);
  return { taskId: TASK, taskEvents: of(streams.task(TASK)), turns: new Map([[TURN, of(streams.turn(TURN))]]) };
}

const plan = (at: string, source = recorded()) =>
  planFork(source, { at: parseForkPoint(at), forkTaskId: FORK, operatorUserId: 'ops', actionId: ACTION });

describe('planning a fork (pure): what `lomo task fork` appends', () => {
  it('at the last revision: every event copied under new ids, caused by its source, the lineage last', () => {
    // Given a task whose one turn completed, When it is forked at its head (revision 4)
    const source = recorded();
    const result = plan('4', source);

    // Then the fork's turn stream comes first, its task stream last, both new
    const forkTurn = result.turns[0].forkTurnId;
    expect(forkTurn).not.toBe(TURN);
    expect(result.writes.map((w) => w.streamId)).toEqual([streams.turn(forkTurn), streams.task(FORK)]);
    const [turnWrite, taskWrite] = result.writes;
    // every copy is caused by its source event and keeps its actor; ids, task and call ids are the fork's
    const sourceTurn = source.turns.get(TURN)!;
    expect(turnWrite.events.map((e) => e.metadata.causationId)).toEqual(sourceTurn.map((e) => e.metadata.eventId));
    expect(taskWrite.events.map((e) => e.metadata.actor)).toEqual([
      ...source.taskEvents.map((e) => e.metadata.actor),
      { kind: 'user', userId: 'ops' },
    ]);
    expect(turnWrite.events[0].data).toEqual({ turnId: forkTurn, taskId: FORK, reason: 'message' });
    expect(turnWrite.events.find((e) => e.type === 'ToolCallCompleted')!.data).toMatchObject({
      callId: `${forkTurn}:1:0`,
    });
    // only the lineage names the source's turn
    expect(JSON.stringify([turnWrite, taskWrite.events.slice(0, -1)])).not.toContain(TURN);
    // no turn was running: nothing cancelled, the lineage is the one event added
    expect(taskWrite.events.map((e) => e.type)).toEqual([...source.taskEvents.map((e) => e.type), 'ForkedFrom']);
    expect(taskWrite.events.at(-1)!.data).toEqual({
      sourceTaskId: TASK,
      sourceRevision: 4,
      sourcePosition: source.taskEvents[4].metadata.globalPosition,
      turns: [{ sourceTurnId: TURN, forkTurnId: forkTurn }],
      by: 'ops',
    });
    expect({ copied: result.copied, added: result.added, cancelled: result.cancelledTurnId }).toEqual({
      copied: 11,
      added: 1,
      cancelled: undefined,
    });
    // the same request plans the same events (a repeated append is the store's no-op)
    expect(plan('4', source).writes).toEqual(result.writes);
  });

  it('a forgetting after the cut reaches the fork: its message, step and the call whose brief the copy holds, on the fork ids', () => {
    // Given the step wrote the brief and a forgetting excluded it after revision 5 (TurnClosed)
    const result = plan('5', recorded(true));
    const forkTurn = result.turns[0].forkTurnId;
    const taskWrite = result.writes[1];
    // Then the exclusion is carried, naming the fork's turn and the fork's call id (the copied brief's)
    const brief = taskWrite.events.find((e) => e.type === 'BriefUpdated')!.data as { callId: string };
    expect(brief.callId).toBe(`${forkTurn}:1:0`);
    expect(taskWrite.events.find((e) => e.type === 'ContextExcluded')!.data).toEqual({
      forgettingId: FORGETTING,
      messageIds: [ITEM],
      steps: [{ turnId: forkTurn, step: 1 }],
      calls: [brief.callId],
    });
  });

  it('at a step: the task as the step committed, the turn cancelled in the fork before its call ran', () => {
    const result = plan(`${TURN}:1`);
    const forkTurn = result.turns[0].forkTurnId;
    const [turnWrite, taskWrite] = result.writes;
    expect(turnWrite.events.map((e) => e.type)).toEqual([
      'TurnStarted',
      'TurnLeased',
      'ModelStepCommitted',
      'TurnCancelled',
    ]);
    expect(turnWrite.events.at(-1)!.data).toEqual({ by: { kind: 'user', userId: 'ops' }, reason: 'operator' });
    expect(taskWrite.events.map((e) => e.type)).toEqual([
      'TaskCreated',
      'MessageDeliveredToInbox',
      'TurnOpened',
      'InboxItemsClaimed',
      'ForkedFrom',
      'TurnClosed',
    ]);
    expect(result).toMatchObject({ sourceRevision: 3, atStep: { turnId: TURN, step: 1 }, cancelledTurnId: forkTurn });
  });

  it('at the TurnOpened revision: the turn that never started is started and cancelled in the fork, its claims none', () => {
    const result = plan('2');
    const forkTurn = result.turns[0].forkTurnId;
    expect(result.writes[0].events.map((e) => e.type)).toEqual(['TurnStarted', 'TurnCancelled']);
    expect(result.writes[1].events.map((e) => e.type).slice(-2)).toEqual(['ForkedFrom', 'TurnClosed']);
    expect(result.cancelledTurnId).toBe(forkTurn);
  });

  it('refuses a revision beyond the head, a turn of another task, a step never committed, a malformed point', () => {
    expect(() => plan('5')).toThrow(ForkBeyondTaskError);
    expect(() => plan(`${FORK}:1`)).toThrow(TurnNotOfTaskError);
    expect(() => plan(`${TURN}:2`)).toThrow(StepNotCommittedError);
    expect(() => parseForkPoint('head')).toThrow(BadPositionError);
    expect(() => parseForkPoint(`${TURN}:0`)).toThrow(BadPositionError);
  });
});
