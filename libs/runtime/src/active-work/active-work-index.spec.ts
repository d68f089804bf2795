import type { EventEnvelope } from '@lomo/contracts';
import { ActiveWorkIndex } from './active-work-index';

const T0 = Date.parse('2026-11-30T00:00:00.000Z');
let position = 0;
const at = (ms: number) => new Date(T0 + ms).toISOString();

function envelope(streamId: string, type: string, data: unknown, ms = 0): EventEnvelope {
  position += 1;
  return {
    type,
    data,
    metadata: {
      eventId: '00000000-0000-4000-8000-000000000000',
      streamId,
      revision: 0,
      globalPosition: String(position),
      occurredAt: at(ms),
      schemaVersion: 1,
      correlationId: 'c',
      causationId: null,
      workspaceId: 'ws',
      actor: { kind: 'system', component: 'test' },
    },
  };
}

const index = () => new ActiveWorkIndex({ readAll: async () => [] });
const task = (id: string) =>
  envelope(`task-${id}`, 'TaskCreated', {
    taskId: id,
    kind: 'persistent',
    goal: 'g',
    language: 'en',
    originMessageId: 'm',
  });
const deliver = (taskId: string, itemId: string) =>
  envelope(`task-${taskId}`, 'MessageDeliveredToInbox', { itemId, messageId: itemId, text: 't', language: 'en' });

describe('ActiveWorkIndex', () => {
  it('finds an inbox with no turn, and forgets finished work', () => {
    const work = index();
    [task('a'), deliver('a', 'i1')].forEach((e) => work.apply(e));
    expect(work.findings(T0, 30_000)).toEqual([{ kind: 'unclaimed-inbox', taskId: 'a', workspaceId: 'ws' }]);
    [
      envelope('task-a', 'TurnOpened', { turnId: 'u', reason: 'message' }),
      envelope('task-a', 'InboxItemsClaimed', { turnId: 'u', step: 1, itemIds: ['i1'] }),
      envelope('turn-u', 'TurnStarted', { turnId: 'u', taskId: 'a', reason: 'message' }),
      envelope('turn-u', 'TurnLeased', { workerId: 'w', generation: 1, leaseUntil: at(30_000) }),
      envelope('turn-u', 'ModelStepCommitted', { step: 1 }),
      envelope('turn-u', 'TurnCompleted', { steps: 1 }),
      envelope('task-a', 'TurnClosed', { turnId: 'u', outcome: 'completed' }),
    ].forEach((e) => work.apply(e));
    expect(work.findings(T0, 30_000)).toEqual([]);
    expect(work.size).toEqual({ tasks: 1, turns: 0 });
    work.apply(envelope('task-a', 'TaskCompleted', {}));
    expect(work.size).toEqual({ tasks: 0, turns: 0 });
  });

  it('finds a continuation the runtime decided but never opened a turn for, once it waited too long', () => {
    const work = index();
    [
      task('c'),
      envelope('task-c', 'TurnOpened', { turnId: 'v', reason: 'message' }),
      envelope('task-c', 'TurnClosed', { turnId: 'v', outcome: 'completed' }),
      envelope('task-c', 'ContinuationDecided', { turnId: 'v', decision: 'continue' }, 1_000),
    ].forEach((e) => work.apply(e));
    expect(work.findings(T0 + 1_000 + 29_999, 30_000)).toEqual([]);
    expect(work.findings(T0 + 1_000 + 30_000, 30_000)).toEqual([
      { kind: 'pending-continuation', taskId: 'c', workspaceId: 'ws' },
    ]);
    work.apply(envelope('task-c', 'TurnOpened', { turnId: 'w', reason: 'continuation' }, 2_000));
    expect(work.findings(T0 + 2_000, 30_000)).toEqual([]);
    work.apply(envelope('task-c', 'TurnClosed', { turnId: 'w', outcome: 'completed' }, 3_000));
    work.apply(envelope('task-c', 'ContinuationDecided', { turnId: 'w', decision: 'stop' }, 3_000));
    expect(work.findings(T0 + 100_000, 30_000)).toEqual([]);
  });

  it('lists the running turns whose latest lease names a worker, live or released, and none that moved on, waits or ended', () => {
    const work = index();
    const turn = (taskId: string, turnId: string, ...events: EventEnvelope[]) => [
      task(taskId),
      envelope(`task-${taskId}`, 'TurnOpened', { turnId, reason: 'message' }),
      envelope(`turn-${turnId}`, 'TurnStarted', { turnId, taskId, reason: 'message' }),
      ...events,
    ];
    const lease = (turnId: string, workerId: string, generation: number) =>
      envelope(`turn-${turnId}`, 'TurnLeased', { workerId, generation, leaseUntil: at(10_000) });
    [
      ...turn('a', 'ta', lease('ta', 'w1', 1)),
      ...turn('b', 'tb', lease('tb', 'w1', 1), lease('tb', 'w2', 2)),
      ...turn(
        'c',
        'tc',
        lease('tc', 'w1', 1),
        envelope('turn-tc', 'TurnWaiting', { on: { kind: 'jobs', jobIds: ['j'] } }),
      ),
      ...turn('d', 'td', lease('td', 'w1', 1), envelope('turn-td', 'TurnCompleted', { steps: 1 })),
      ...turn(
        'e',
        'te',
        lease('te', 'w1', 1),
        envelope('turn-te', 'TurnLeaseRenewed', { workerId: 'w1', generation: 1, leaseUntil: at(0) }),
      ),
    ].forEach((e) => work.apply(e));
    expect(work.leasedTo('w1')).toEqual([
      { taskId: 'a', turnId: 'ta', workspaceId: 'ws' },
      { taskId: 'e', turnId: 'te', workspaceId: 'ws' },
    ]);
    expect(work.leasedTo('w2').map((t) => t.turnId)).toEqual(['tb']);
    expect(work.leasedTo('w3')).toEqual([]);
  });

  it('finds expired leases, long-queued turns, satisfied waits and claims left by an ended turn', () => {
    const work = index();
    [
      task('lease'),
      envelope('task-lease', 'TurnOpened', { turnId: 'l', reason: 'message' }),
      envelope('turn-l', 'TurnStarted', { turnId: 'l', taskId: 'lease', reason: 'message' }),
      envelope('turn-l', 'TurnLeased', { workerId: 'w', generation: 1, leaseUntil: at(30_000) }),
      task('queued'),
      envelope('task-queued', 'TurnOpened', { turnId: 'q', reason: 'message' }),
      envelope('turn-q', 'TurnStarted', { turnId: 'q', taskId: 'queued', reason: 'message' }),
      task('wait'),
      envelope('task-wait', 'TurnOpened', { turnId: 'w', reason: 'message' }),
      envelope('turn-w', 'TurnStarted', { turnId: 'w', taskId: 'wait', reason: 'message' }),
      envelope('turn-w', 'TurnWaiting', { on: { kind: 'calls', callIds: ['w:1:0'] } }),
      envelope('turn-w', 'ToolCallCompleted', { callId: 'w:1:0', status: 'ok' }),
      task('claims'),
      deliver('claims', 'i'),
      envelope('task-claims', 'TurnOpened', { turnId: 'c', reason: 'message' }),
      envelope('task-claims', 'InboxItemsClaimed', { turnId: 'c', step: 1, itemIds: ['i'] }),
      envelope('turn-c', 'TurnStarted', { turnId: 'c', taskId: 'claims', reason: 'message' }),
      envelope('turn-c', 'TurnFailed', { error: { code: 'X_Y', message: 'm', retriable: false } }),
    ].forEach((e) => work.apply(e));
    expect(work.findings(T0 + 10_000, 30_000).map((f) => [f.taskId, f.kind])).toEqual([
      ['wait', 'wait-satisfied'],
      ['claims', 'unclosed-turn'],
    ]);
    expect(work.findings(T0 + 30_000, 30_000).map((f) => [f.taskId, f.kind])).toEqual([
      ['lease', 'lease-expired'],
      ['queued', 'queued-too-long'],
      ['wait', 'wait-satisfied'],
      ['claims', 'unclosed-turn'],
    ]);
    work.apply(envelope('task-claims', 'TurnClosed', { turnId: 'c', outcome: 'failed' }));
    expect(work.findings(T0, 30_000).map((f) => [f.taskId, f.kind])).toContainEqual(['claims', 'unreleased-claims']);
  });
});
