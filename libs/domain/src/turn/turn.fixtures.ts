import type { Actor } from '@lomo/contracts';
import type { TurnEvent } from './turn-events';

/** Ids, times and event builders for turn decider tests (never imported by production code). */
export const turnIds = {
  turn: '5f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f',
  task: '0b9c6f3e-8a51-4d7e-9a35-2f7c1d4e5a60',
  item: '11111111-1111-4111-8111-111111111111',
  job: '44444444-4444-4444-8444-444444444444',
  checkpoint: '9f4c1e3a-5b6d-4c7e-8f9a-3b4c5d6e7f80',
} as const;

export const T0 = '2025-01-01T00:00:00.000Z';
export const at = (seconds: number) => new Date(Date.parse(T0) + seconds * 1000).toISOString();
export const LEASE_MS = 30_000;

export const call = (step: number, index: number) => `${turnIds.turn}:${step}:${index}`;
export const promptRef = { hash: 'a'.repeat(64), bytes: 120, contentType: 'application/json' };
export const usage = { inputTokens: 100, outputTokens: 20 };
export const runtime: Actor = { kind: 'system', component: 'runtime' };

export const started: TurnEvent = {
  type: 'TurnStarted',
  data: { turnId: turnIds.turn, taskId: turnIds.task, reason: 'message' },
};

export const leased = (workerId: string, generation: number, leaseUntil: string): TurnEvent => ({
  type: 'TurnLeased',
  data: { workerId, generation, leaseUntil },
});

export const stepCommitted = (step: number, tools: string[] = [], consumedItemIds: string[] = []): TurnEvent => ({
  type: 'ModelStepCommitted',
  data: {
    step,
    reply: `step ${step}`,
    toolCallIntents: tools.map((tool, index) => ({ callId: call(step, index), tool, arguments: { n: index } })),
    consumedItemIds,
    usage,
    promptRef,
    finishReason: tools.length > 0 ? 'tool_calls' : 'stop',
  },
});

export const callStarted = (callId: string, tool = 'notes.read', attempt = 1): TurnEvent => ({
  type: 'ToolCallStarted',
  data: { callId, tool, idempotencyKey: callId, attempt },
});

export const callCompleted = (callId: string, result: string = 'ok'): TurnEvent => ({
  type: 'ToolCallCompleted',
  data: { callId, status: 'ok', result },
});

export const cancelled: TurnEvent = { type: 'TurnCancelled', data: { by: runtime, reason: 'task_stopped' } };

/** Started, leased by worker A at T0 (generation 1), step 1 committed with one call. */
export const runningWithCall = (tool = 'notes.read'): TurnEvent[] => [
  started,
  leased('worker-a', 1, at(30)),
  stepCommitted(1, [tool]),
];

/** The same, then worker B took over after A's lease expired (generation 2). */
export const takenOver = (): TurnEvent[] => [...runningWithCall(), leased('worker-b', 2, at(90))];
