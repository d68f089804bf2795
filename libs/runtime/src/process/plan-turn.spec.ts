import { callArgumentsHash } from './call-hash';
import { checkpointIdFor, checkpointOpenedEventIdFor, reviewCheckpointIdFor } from './derived-ids';
import { planTurn } from './plan-turn';
import { ITEM, ITEM2, ME, NOW, TASK, TURN, callOf, created, leased, started, step, viewOf } from './plan-turn.fixtures';

const claimed = { type: 'InboxItemsClaimed' as const, data: { turnId: TURN, step: 1, itemIds: [ITEM] } };

describe('planTurn: the coordinating decider', () => {
  describe('holding the turn', () => {
    it('starts a turn the task opened but whose stream is empty', () => {
      expect(planTurn(viewOf(created, []))).toMatchObject({
        kind: 'append',
        stream: 'turn',
        intent: 'start-turn',
        expected: 'no_stream',
        events: [{ type: 'TurnStarted', data: { turnId: TURN, taskId: TASK, reason: 'message' } }],
      });
    });

    it('takes the lease of a queued turn at generation 1, and of an expired one at the next generation', () => {
      expect(planTurn(viewOf(created, started))).toMatchObject({
        intent: 'take-lease',
        expected: 0,
        events: [{ type: 'TurnLeased', data: { workerId: ME, generation: 1 } }],
      });
      const expired = viewOf(created, [...started, leased(1, 'other', '2026-11-30T00:00:05.000Z')], { generation: 0 });
      expect(planTurn(expired)).toMatchObject({ intent: 'take-lease', events: [{ data: { generation: 2 } }] });
    });

    it('takes over a live lease under its own worker id that no session here holds (a restart), at the next generation', () => {
      const mine = viewOf(created, [...started, leased(1, ME)], { generation: 0 });
      expect(planTurn(mine)).toMatchObject({
        intent: 'take-lease',
        events: [{ type: 'TurnLeased', data: { workerId: ME, generation: 2 } }],
      });
    });

    it('leaves a live lease of another worker alone, and stops when its own generation was taken over', () => {
      const other = [...started, leased(1, 'other')];
      expect(planTurn(viewOf(created, other, { generation: 0 }))).toEqual({ kind: 'finish', reason: 'held-elsewhere' });
      const takenOver = [...started, leased(1), leased(2, 'other')];
      expect(planTurn(viewOf(created, takenOver, { generation: 1 }))).toEqual({ kind: 'finish', reason: 'lease-lost' });
    });
  });

  describe('the step boundary', () => {
    it('claims the inbox for the next step, then calls the model with exactly the claimed items', () => {
      expect(planTurn(viewOf(created, [...started, leased()]))).toMatchObject({
        kind: 'append',
        stream: 'task',
        intent: 'claim',
        expected: 2,
        events: [claimed],
      });
      expect(planTurn(viewOf([...created, claimed], [...started, leased()]))).toEqual({
        kind: 'callModel',
        step: 1,
        claimedItemIds: [ITEM],
      });
    });

    it('reuses a standing claim (a takeover) and leaves items delivered after it for the next step', () => {
      const later = {
        type: 'MessageDeliveredToInbox' as const,
        data: { itemId: ITEM2, messageId: ITEM2, text: 'more', language: 'en' },
      };
      expect(planTurn(viewOf([...created, claimed, later], [...started, leased(2, ME)]))).toEqual({
        kind: 'callModel',
        step: 1,
        claimedItemIds: [ITEM],
      });
    });

    it('completes after a step without tool calls, unless a message is still unread', () => {
      const turn = [...started, leased(), step(1, [], [ITEM])];
      expect(planTurn(viewOf([...created, claimed], turn))).toMatchObject({
        intent: 'complete',
        events: [{ type: 'TurnCompleted', data: { steps: 1, summary: 'reply 1' } }],
      });
      const later = {
        type: 'MessageDeliveredToInbox' as const,
        data: { itemId: ITEM2, messageId: ITEM2, text: 'more', language: 'en' },
      };
      expect(planTurn(viewOf([...created, claimed, later], turn))).toMatchObject({
        intent: 'claim',
        events: [{ data: { step: 2, itemIds: [ITEM2] } }],
      });
    });

    it('a step with open change notices consumes them in its claim; open notices alone never keep a finished turn going', () => {
      const noticeId = '00000000-0000-4000-8000-0000000000ab';
      const noticed = {
        type: 'ArtifactChangeNoticed' as const,
        data: {
          noticeId,
          artifactId: '00000000-0000-4000-8000-0000000000aa',
          fromVersion: 1,
          toVersion: 2,
          by: { kind: 'person' as const, userId: 'u1' },
          nodes: [],
          summary: '',
        },
      };
      const consumed = {
        type: 'ArtifactChangeNoticesConsumed' as const,
        data: { turnId: TURN, step: 2, noticeIds: [noticeId] },
      };
      const afterCall = [...started, leased(), step(1, [{ tool: 'notes.list' }], [ITEM])];
      afterCall.push(
        {
          type: 'ToolCallStarted',
          data: { callId: callOf(1, 0), tool: 'notes.list', idempotencyKey: callOf(1, 0), attempt: 1 },
        },
        { type: 'ToolCallCompleted', data: { callId: callOf(1, 0), status: 'ok', result: [] } },
      );
      expect(planTurn(viewOf([...created, claimed, noticed], afterCall))).toMatchObject({
        intent: 'claim',
        events: [consumed],
      });
      expect(planTurn(viewOf([...created, claimed, noticed, consumed], afterCall))).toEqual({
        kind: 'callModel',
        step: 2,
        claimedItemIds: [],
      });
      const finished = [...started, leased(), step(1, [], [ITEM])];
      expect(planTurn(viewOf([...created, claimed, noticed], finished))).toMatchObject({ intent: 'complete' });
    });

    it('fails a turn that reached its step limit instead of asking the model again', () => {
      const turn = [...started, leased(), step(1, [{ tool: 'notes.list' }])];
      turn.push({
        type: 'ToolCallStarted',
        data: { callId: callOf(1, 0), tool: 'notes.list', idempotencyKey: callOf(1, 0), attempt: 1 },
      });
      turn.push({ type: 'ToolCallCompleted', data: { callId: callOf(1, 0), status: 'ok', result: [] } });
      expect(planTurn(viewOf([...created, claimed], turn, { maxSteps: 1 }))).toMatchObject({
        intent: 'fail',
        events: [{ type: 'TurnFailed', data: { error: { code: 'STEP_LIMIT_REACHED' } } }],
      });
    });
  });

  describe('the ledger', () => {
    const withCall = (tool: string) => [...started, leased(), step(1, [{ tool }], [ITEM])];
    const startedCall = (tool: string, attempt = 1) => ({
      type: 'ToolCallStarted' as const,
      data: { callId: callOf(1, 0), tool, idempotencyKey: callOf(1, 0), attempt },
    });

    it('starts an intended call, then runs it once started here', () => {
      const turn = withCall('notes.list');
      expect(planTurn(viewOf(created, turn))).toMatchObject({
        intent: 'start-call',
        callId: callOf(1, 0),
        events: [{ type: 'ToolCallStarted', data: { attempt: 1, idempotencyKey: callOf(1, 0) } }],
      });
      const view = viewOf(created, [...turn, startedCall('notes.list')], {
        localCalls: new Map([[callOf(1, 0), 'started']]),
      });
      expect(planTurn(view)).toEqual({ kind: 'runTool', callId: callOf(1, 0) });
    });

    it('retries an idempotent call started elsewhere with the same key, and records a non-idempotent one as unknown', () => {
      const idempotent = [...withCall('notes.list'), startedCall('notes.list')];
      expect(planTurn(viewOf(created, idempotent))).toMatchObject({
        intent: 'retry-call',
        events: [{ type: 'ToolCallStarted', data: { attempt: 2, idempotencyKey: callOf(1, 0) } }],
      });
      const once = [...withCall('notes.append_line'), startedCall('notes.append_line')];
      expect(planTurn(viewOf(created, once))).toMatchObject({
        intent: 'record-unknown',
        events: [{ type: 'ToolCallOutcomeUnknown', data: { reason: 'started_without_result_not_idempotent' } }],
      });
    });

    it('opens a checkpoint naming the call (ids derived from it), then waits on it, for an unapproved irreversible call', () => {
      const turn = withCall('notes.delete');
      const open = planTurn(viewOf(created, turn));
      expect(open).toMatchObject({
        kind: 'append',
        stream: 'task',
        intent: 'open-checkpoint',
        eventIds: [checkpointOpenedEventIdFor(callOf(1, 0))],
        events: [
          {
            type: 'CheckpointOpened',
            data: { checkpointId: checkpointIdFor(callOf(1, 0)), kind: 'approval', callId: callOf(1, 0) },
          },
        ],
      });
      const opened = open.kind === 'append' && open.stream === 'task' ? open.events : [];
      expect(planTurn(viewOf([...created, ...opened], turn))).toMatchObject({
        intent: 'wait',
        events: [
          { type: 'TurnWaiting', data: { on: { kind: 'checkpoint', checkpointId: checkpointIdFor(callOf(1, 0)) } } },
        ],
      });
    });

    it('declines a rejected call without running it', () => {
      const checkpointId = checkpointIdFor(callOf(1, 0));
      const task = [
        ...created,
        {
          type: 'CheckpointOpened' as const,
          data: { checkpointId, turnId: TURN, kind: 'approval' as const, callId: callOf(1, 0), question: 'ok?' },
        },
        {
          type: 'CheckpointResolved' as const,
          data: { checkpointId, decision: 'reject' as const, callId: callOf(1, 0), resolvedBy: 'user_1' },
        },
      ];
      expect(planTurn(viewOf(task, withCall('notes.delete')))).toMatchObject({
        intent: 'decline-call',
        // Never started: a declined call goes from intended straight to its error result.
        events: [{ type: 'ToolCallCompleted', data: { status: 'error', error: { code: 'CALL_DECLINED' } } }],
      });
    });

    it('an approval whose card showed other arguments than the call holds is refused, never run', () => {
      const checkpointId = checkpointIdFor(callOf(1, 0));
      const card = (argumentsHash: string) => [
        ...created,
        {
          type: 'CheckpointOpened' as const,
          data: {
            checkpointId,
            turnId: TURN,
            kind: 'approval' as const,
            callId: callOf(1, 0),
            question: 'ok?',
            argumentsHash,
          },
        },
        {
          type: 'CheckpointResolved' as const,
          data: { checkpointId, decision: 'approve' as const, callId: callOf(1, 0), resolvedBy: 'user_1' },
        },
      ];
      expect(planTurn(viewOf(card('b'.repeat(64)), withCall('notes.delete')))).toMatchObject({
        intent: 'decline-call',
        events: [{ type: 'ToolCallCompleted', data: { status: 'error', error: { code: 'CALL_DECLINED' } } }],
      });
      // The card the runtime opens names the call's own hash: approved, the call starts.
      const open = planTurn(viewOf(created, withCall('notes.delete')));
      const shown = open.kind === 'append' && open.stream === 'task' ? open.events[0] : undefined;
      const hash = (shown?.data as { argumentsHash?: string } | undefined)?.argumentsHash;
      expect(hash).toBe(callArgumentsHash('notes.delete', {}));
      expect(planTurn(viewOf(card(hash!), withCall('notes.delete')))).toMatchObject({ intent: 'start-call' });
    });

    it('waits on async calls that answered pending once nothing else can run', () => {
      const turn = [...withCall('export.document'), startedCall('export.document')];
      const view = viewOf(created, turn, { localCalls: new Map([[callOf(1, 0), 'pending']]) });
      expect(planTurn(view)).toMatchObject({
        intent: 'wait',
        events: [{ type: 'TurnWaiting', data: { on: { kind: 'calls', callIds: [callOf(1, 0)] } } }],
      });
    });
  });

  describe('after the turn ended', () => {
    it('releases uncommitted claims, closes the turn and finishes an interrupted stop', () => {
      const turn = [
        ...started,
        leased(),
        {
          type: 'TurnCancelled' as const,
          data: { by: { kind: 'user' as const, userId: 'user_1' }, reason: 'task_stopped' as const },
        },
      ];
      expect(planTurn(viewOf([...created, claimed], turn))).toMatchObject({
        kind: 'append',
        stream: 'task',
        intent: 'close',
        events: [
          { type: 'InboxItemsReleased', data: { turnId: TURN, step: 1, itemIds: [ITEM], reason: 'turn_cancelled' } },
          { type: 'TurnClosed', data: { turnId: TURN, outcome: 'cancelled' } },
          { type: 'TaskStopped', data: { cancelledTurnId: TURN } },
        ],
      });
    });

    it('closes a completed turn of a persistent task with the continuation decision in the same append', () => {
      const turn = [...started, leased(), step(1, [], [ITEM]), { type: 'TurnCompleted' as const, data: { steps: 1 } }];
      const planned = {
        type: 'ChecklistPlanned' as const,
        data: { items: [{ itemId: 'script', title: 'Script', dependsOn: [] }] },
      };
      expect(planTurn(viewOf([...created, claimed, planned], turn))).toMatchObject({
        kind: 'append',
        stream: 'task',
        intent: 'close',
        events: [
          { type: 'TurnClosed', data: { turnId: TURN, outcome: 'completed' } },
          {
            type: 'ContinuationDecided',
            data: { turnId: TURN, decision: 'continue', reason: 'pending_items', progress: ['person_input'] },
          },
        ],
      });
    });

    it('a stage the person reviews done in this turn, and no card asked: the runtime opens the review card before it closes the turn', () => {
      const turn = [...started, leased(), step(1, [], [ITEM]), { type: 'TurnCompleted' as const, data: { steps: 1 } }];
      const planned = {
        type: 'ChecklistPlanned' as const,
        data: {
          items: [
            { itemId: 'board', title: 'Storyboard', dependsOn: [], needsConfirmation: true },
            { itemId: 'shots', title: 'Shots', dependsOn: ['board'] },
          ],
        },
      };
      const done = { type: 'ChecklistItemChanged' as const, data: { itemId: 'board', status: 'done' as const } };
      const output = planTurn(viewOf([...created, claimed, planned, done], turn));
      expect(output).toMatchObject({
        kind: 'append',
        stream: 'task',
        intent: 'close',
        events: [
          {
            type: 'CheckpointOpened',
            data: { checkpointId: reviewCheckpointIdFor(TURN, 'board'), turnId: TURN, kind: 'review', itemId: 'board' },
          },
          { type: 'TurnClosed', data: { turnId: TURN, outcome: 'completed' } },
          { type: 'ContinuationDecided', data: { decision: 'await_person', reason: 'review_needed' } },
        ],
      });
    });

    it('finishes once everything is closed', () => {
      const turn = [...started, leased(), step(1, [], [ITEM]), { type: 'TurnCompleted' as const, data: { steps: 1 } }];
      const task = [
        ...created,
        claimed,
        { type: 'TurnClosed' as const, data: { turnId: TURN, outcome: 'completed' as const } },
      ];
      expect(planTurn(viewOf(task, turn))).toEqual({ kind: 'finish', reason: 'completed' });
    });

    it('resumes a waiting turn whose awaited calls have completed', () => {
      const turn = [
        ...started,
        leased(),
        step(1, [{ tool: 'export.document' }]),
        {
          type: 'ToolCallStarted' as const,
          data: { callId: callOf(1, 0), tool: 'export.document', idempotencyKey: callOf(1, 0), attempt: 1 },
        },
        { type: 'TurnWaiting' as const, data: { on: { kind: 'calls' as const, callIds: [callOf(1, 0)] } } },
      ];
      expect(planTurn(viewOf(created, turn, { generation: 0 }))).toEqual({ kind: 'finish', reason: 'waiting' });
      turn.push({ type: 'ToolCallCompleted', data: { callId: callOf(1, 0), status: 'ok', result: 'file' } });
      expect(planTurn(viewOf(created, turn, { generation: 0, now: NOW }))).toMatchObject({
        intent: 'resume',
        events: [{ type: 'TurnResumed' }],
      });
    });
  });
});
