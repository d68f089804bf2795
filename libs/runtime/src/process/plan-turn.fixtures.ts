import { makeCallId } from '@lomo/contracts';
import {
  existingTask,
  fold,
  taskDecider,
  turnDecider,
  type TaskEvent,
  type TurnEvent,
  type TurnState,
} from '@lomo/domain';
import type { PlanView, ToolTraits } from './plan-view';

export const TASK = '00000000-0000-4000-8000-00000000000a';
export const TURN = '00000000-0000-4000-8000-00000000000b';
export const ITEM = '00000000-0000-4000-8000-00000000000c';
export const ITEM2 = '00000000-0000-4000-8000-00000000000d';
export const NOW = '2026-11-30T00:00:10.000Z';
export const ME = 'worker-me';
export const promptRef = { hash: 'a'.repeat(64), bytes: 10, contentType: 'application/json' };
export const callOf = (step: number, index: number) => makeCallId(TURN, step, index);

export const created: TaskEvent[] = [
  { type: 'TaskCreated', data: { taskId: TASK, kind: 'persistent', goal: 'g', language: 'en', originMessageId: ITEM } },
  { type: 'MessageDeliveredToInbox', data: { itemId: ITEM, messageId: ITEM, text: 'hi', language: 'en' } },
  { type: 'TurnOpened', data: { turnId: TURN, reason: 'message' } },
];

export const started: TurnEvent[] = [{ type: 'TurnStarted', data: { turnId: TURN, taskId: TASK, reason: 'message' } }];
export const leased = (generation = 1, workerId = ME, leaseUntil = '2026-11-30T00:00:30.000Z'): TurnEvent => ({
  type: 'TurnLeased',
  data: { workerId, generation, leaseUntil },
});
export const step = (
  n: number,
  calls: Array<{ tool: string; arguments?: Record<string, string> }> = [],
  consumed: string[] = [],
): TurnEvent => ({
  type: 'ModelStepCommitted',
  data: {
    step: n,
    reply: `reply ${n}`,
    toolCallIntents: calls.map((c, i) => ({ callId: callOf(n, i), tool: c.tool, arguments: c.arguments ?? {} })),
    consumedItemIds: consumed,
    usage: { inputTokens: 1, outputTokens: 1 },
    promptRef,
    finishReason: calls.length > 0 ? 'tool_calls' : 'stop',
  },
});

const tools: Record<string, ToolTraits & { approval?: boolean }> = {
  'notes.list': { idempotent: true, async: false },
  'notes.append_line': { idempotent: false, async: false },
  'notes.delete': { idempotent: false, async: false, approval: true },
  'export.document': { idempotent: true, async: true },
};

/** A view with the worker holding generation 1 unless the test says otherwise. */
export function viewOf(task: TaskEvent[], turn: TurnEvent[], overrides: Partial<PlanView> = {}): PlanView {
  const taskState = existingTask(fold(taskDecider, task));
  const turnState: TurnState = fold(turnDecider, turn);
  return {
    now: NOW,
    workerId: ME,
    leaseMs: 30_000,
    maxSteps: 10,
    continuation: { maxAutoTurns: 12, maxTurnsWithoutProgress: 2 },
    generation: turnState.status === 'none' ? 0 : turnState.generation,
    wakeReason: 'message',
    taskId: TASK,
    turnId: TURN,
    turn: turnState,
    turnRevision: turn.length - 1 < 0 ? 'no_stream' : turn.length - 1,
    task: taskState,
    taskRevision: task.length - 1,
    traits: (name) => tools[name],
    authorize: (name, callId) =>
      tools[name]?.approval && taskState.approvals[callId]?.decision !== 'approve'
        ? { decision: 'needs_approval', question: `May I run ${name}?` }
        : { decision: 'allowed' },
    localCalls: new Map(),
    ...overrides,
  };
}
