import { makeCallId, type Clock } from '@lomo/contracts';
import type { ToolContext } from '../tool.port';

export const TEST_WORKSPACE_ID = 'ws_test';
export const TEST_TASK_ID = '11111111-1111-4111-8111-111111111111';
export const TEST_TURN_ID = '22222222-2222-4222-8222-222222222222';

const fixedClock: Clock = { now: () => new Date('2026-11-30T00:00:00.000Z') };

/**
 * A tool context for tests: call `index` of step 1 of a fixed turn unless told otherwise, with
 * the idempotency key equal to the call id as the runtime sets it.
 */
export function makeToolContext(overrides: Partial<ToolContext> & { index?: number } = {}): ToolContext {
  const { index = 0, ...rest } = overrides;
  const turnId = rest.turnId ?? TEST_TURN_ID;
  const step = rest.step ?? 1;
  const callId = rest.callId ?? makeCallId(turnId, step, index);
  return {
    workspaceId: TEST_WORKSPACE_ID,
    taskId: TEST_TASK_ID,
    signal: new AbortController().signal,
    clock: fixedClock,
    ...rest,
    turnId,
    step,
    callId,
    idempotencyKey: rest.idempotencyKey ?? callId,
  };
}
