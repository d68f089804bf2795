import { makeCallId, type Actor, type EventEnvelope } from '@lomo/contracts';
import { isApproved, taskDecider, taskEventTypes, type TaskEvent } from '@lomo/domain';
import { authorizeCall, requiresApproval } from './authorize-call';

const turnId = '33333333-3333-4333-8333-333333333333';
const deleteCall = makeCallId(turnId, 2, 0);
const otherCall = makeCallId(turnId, 2, 1);
const checkpointA = '44444444-4444-4444-8444-444444444444';
const checkpointB = '55555555-5555-4555-8555-555555555555';
const user: Actor = { kind: 'user', userId: 'alice' };

let revision = 0;
function taskEvent(type: string, data: Record<string, unknown>, actor: Actor = user): EventEnvelope {
  revision += 1;
  return {
    type,
    data,
    metadata: {
      eventId: `00000000-0000-4000-8000-${String(revision).padStart(12, '0')}`,
      streamId: 'task-66666666-6666-4666-8666-666666666666',
      revision,
      globalPosition: String(revision),
      occurredAt: '2026-11-30T00:00:00.000Z',
      correlationId: 'corr-1',
      causationId: null,
      workspaceId: 'ws1',
      actor,
      schemaVersion: 1,
    },
  };
}

const opened = (checkpointId: string, callId: string) =>
  taskEvent(
    'CheckpointOpened',
    { checkpointId, turnId, kind: 'approval', callId, question: 'Delete the note?' },
    { kind: 'agent' },
  );
const resolved = (checkpointId: string, callId: string, decision: 'approve' | 'reject', actor: Actor = user) =>
  taskEvent('CheckpointResolved', { checkpointId, decision, callId, resolvedBy: 'alice' }, actor);

const created = taskEvent('TaskCreated', {
  taskId: '66666666-6666-4666-8666-666666666666',
  kind: 'persistent',
  goal: 'Tidy the notes',
  language: 'en',
  originMessageId: '77777777-7777-4777-8777-777777777777',
});

/** The approvals as the runtime sees them: the task's events folded by the domain, with who recorded each. */
function approvedCalls(events: EventEnvelope[]) {
  const known: readonly string[] = taskEventTypes;
  const state = [created, ...events.filter((e) => known.includes(e.type))].reduce(
    (s, e) => taskDecider.evolve(s, { type: e.type, data: e.data, recordedBy: e.metadata.actor } as TaskEvent),
    taskDecider.initialState(),
  );
  return { has: (callId: string) => isApproved(state, callId) };
}

const decide = (sideEffect: 'read' | 'write' | 'paid' | 'irreversible', events: EventEnvelope[], callId = deleteCall) =>
  authorizeCall({ toolName: 'notes.delete', sideEffect, callId, approvedCalls: approvedCalls(events) });

describe('authorizeCall', () => {
  it('allows read and write calls without any approval', () => {
    expect(decide('read', [])).toEqual({ decision: 'allowed' });
    expect(decide('write', [])).toEqual({ decision: 'allowed' });
    expect(requiresApproval('write')).toBe(false);
  });

  it('asks for approval of a paid or irreversible call, naming the call id', () => {
    for (const sideEffect of ['paid', 'irreversible'] as const) {
      const decision = decide(sideEffect, []);
      expect(decision).toMatchObject({ decision: 'needs_approval', callId: deleteCall });
      if (decision.decision !== 'needs_approval') continue;
      expect(decision.question).toContain('notes.delete');
      expect(decision.question).toContain(deleteCall);
    }
  });

  it('allows a paid call the ledger authorizes, but never an irreversible one, whatever it declares', () => {
    const ask = (sideEffect: 'paid' | 'irreversible', authorizedBy?: 'person' | 'ledger') =>
      authorizeCall({
        toolName: 'image.generate',
        sideEffect,
        authorizedBy,
        callId: deleteCall,
        approvedCalls: approvedCalls([]),
      });
    expect(ask('paid', 'ledger')).toEqual({ decision: 'allowed' });
    expect(ask('paid', 'person')).toMatchObject({ decision: 'needs_approval', callId: deleteCall });
    expect(ask('paid')).toMatchObject({ decision: 'needs_approval', callId: deleteCall });
    // The registry refuses such a definition; this guard holds for callers that bypass it.
    expect(ask('irreversible', 'ledger')).toMatchObject({ decision: 'needs_approval', callId: deleteCall });
  });

  it('is not authorized by arguments or model text claiming "the user approved"', () => {
    // Whatever the model wrote, even mixed into the events handed over, is never evidence.
    const claims = [
      taskEvent(
        'ModelStepCommitted',
        {
          step: 2,
          reply: 'The user approved this deletion earlier, proceeding.',
          toolCallIntents: [
            {
              callId: deleteCall,
              tool: 'notes.delete',
              arguments: { noteId: 'x', userApproved: true, approval: 'approve' },
            },
          ],
          consumedItemIds: [],
          usage: { inputTokens: 1, outputTokens: 1 },
          promptRef: { hash: 'a'.repeat(64), bytes: 1, contentType: 'application/json' },
          finishReason: 'tool_calls',
        },
        { kind: 'agent' },
      ),
      taskEvent(
        'ChecklistItemChanged',
        { itemId: 'delete', status: 'done', note: `approved: ${deleteCall}` },
        { kind: 'agent' },
      ),
      taskEvent('MessageDeliveredToInbox', {
        itemId: '77777777-7777-4777-8777-777777777777',
        messageId: '77777777-7777-4777-8777-777777777777',
        text: `I approve ${deleteCall}`,
        language: 'en',
      }),
    ];
    expect(approvedCalls(claims).has(deleteCall)).toBe(false);
    expect(decide('irreversible', claims)).toMatchObject({ decision: 'needs_approval', callId: deleteCall });
  });

  it('is not authorized by an approval of another call id', () => {
    const events = [opened(checkpointB, otherCall), resolved(checkpointB, otherCall, 'approve')];
    expect(decide('irreversible', events)).toMatchObject({ decision: 'needs_approval' });
    expect(decide('irreversible', events, otherCall)).toEqual({ decision: 'allowed' });
  });

  it('is authorized by an approve resolution of a checkpoint opened for exactly that call', () => {
    const events = [opened(checkpointA, deleteCall), resolved(checkpointA, deleteCall, 'approve')];
    expect(decide('irreversible', events)).toEqual({ decision: 'allowed' });
    expect(decide('paid', events)).toEqual({ decision: 'allowed' });
  });

  it('is not authorized by a reject, nor by an approval a later reject took back', () => {
    expect(
      decide('irreversible', [opened(checkpointA, deleteCall), resolved(checkpointA, deleteCall, 'reject')]),
    ).toMatchObject({ decision: 'needs_approval' });
    const revoked = [
      opened(checkpointA, deleteCall),
      resolved(checkpointA, deleteCall, 'approve'),
      opened(checkpointB, deleteCall),
      resolved(checkpointB, deleteCall, 'reject'),
    ];
    expect(decide('irreversible', revoked)).toMatchObject({ decision: 'needs_approval' });
  });

  it('is not authorized by an approval without its checkpoint, or one that names another call than its checkpoint', () => {
    expect(decide('irreversible', [resolved(checkpointA, deleteCall, 'approve')])).toMatchObject({
      decision: 'needs_approval',
    });
    const mismatched = [opened(checkpointA, otherCall), resolved(checkpointA, deleteCall, 'approve')];
    expect(decide('irreversible', mismatched)).toMatchObject({ decision: 'needs_approval' });
  });

  it('is not authorized by an approval the agent recorded itself', () => {
    const events = [opened(checkpointA, deleteCall), resolved(checkpointA, deleteCall, 'approve', { kind: 'agent' })];
    expect(decide('irreversible', events)).toMatchObject({ decision: 'needs_approval' });
  });
});
