import { fold, taskDecider, type TaskEvent } from '@lomo/domain';
import { decideRouting, goalFrom, taskIdFor, type UserMessage } from './routing-decision';

const messageId = '7d2a9c1e-3f4b-4a5c-9d6e-1f2a3b4c5d6e';
const target = '0b9c6f3e-8a51-4d7e-9a35-2f7c1d4e5a60';
const message = (extra: Partial<UserMessage> = {}): UserMessage => ({
  messageId,
  userId: 'u1',
  text: 'Make it blue',
  language: 'en',
  channel: 'ui',
  ...extra,
});
const created: TaskEvent = {
  type: 'TaskCreated',
  data: { taskId: target, kind: 'persistent', goal: 'Poster', language: 'en', originMessageId: target },
};
const person = { kind: 'user' as const, userId: 'u1' };

describe('pass-through routing decision', () => {
  it('starts a new task, whose id derives from the message id, for a message without a task target', () => {
    expect(decideRouting(message(), undefined)).toEqual({
      messageId,
      outcome: 'new',
      taskId: taskIdFor(messageId),
      method: 'deterministic',
      candidates: [],
    });
    expect(taskIdFor(messageId)).toBe(taskIdFor(messageId));
    expect(decideRouting(message({ target: { artifactRef: `artifact:${target}` } }), undefined).outcome).toBe('new');
  });

  it.each<[string, TaskEvent[]]>([
    ['active', [created]],
    [
      'waiting',
      [
        created,
        { type: 'CheckpointOpened', data: { checkpointId: target, turnId: target, kind: 'question', question: '?' } },
      ],
    ],
    ['paused', [created, { type: 'TaskPaused', data: { by: person } }]],
  ])('delivers to an %s target', (_status, history) => {
    expect(decideRouting(message({ target: { taskId: target } }), fold(taskDecider, history))).toMatchObject({
      outcome: 'existing',
      taskId: target,
      candidates: [{ taskId: target, score: 1, source: 'explicit' }],
    });
  });

  it.each<[string, TaskEvent[], string]>([
    ['missing', [], 'target task not found'],
    ['stopped', [created, { type: 'TaskStopped', data: { by: person } }], 'target task is stopped'],
    ['completed', [created, { type: 'TaskCompleted', data: {} }], 'target task is completed'],
  ])('asks instead of delivering to a %s target', (_status, history, reason) => {
    expect(decideRouting(message({ target: { taskId: target } }), fold(taskDecider, history))).toMatchObject({
      outcome: 'clarify',
      taskId: null,
      reason,
    });
  });

  it('keeps a goal within 2000 UTF-16 units without splitting a surrogate pair', () => {
    expect(goalFrom('  short  ')).toBe('short');
    const long = `${'a'.repeat(1999)}😀tail`;
    expect(goalFrom(long)).toBe('a'.repeat(1999));
    expect(goalFrom('b'.repeat(2500))).toHaveLength(2000);
  });
});
