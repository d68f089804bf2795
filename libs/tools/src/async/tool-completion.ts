import {
  deterministicUuid,
  streams,
  WAKE_UP_TOPIC,
  wakeUpMessage,
  type Actor,
  type NewEvent,
  type WakeUpMessage,
} from '@lomo/contracts';
import type { EventBus } from '@lomo/bus';
import type { EventStore } from '@lomo/eventstore';
import type { JsonValue, ToolError } from '../tool.port';

export const TOOL_COMPLETION_NAMESPACE = 'lomo.tool-completion';

/**
 * The event id of an async call's completion. Derived from the call id, so whoever appends it,
 * however often (a restarted runner, two runners racing), the turn stream holds it once.
 */
export const toolCompletionEventId = (callId: string): string => deterministicUuid(TOOL_COMPLETION_NAMESPACE, callId);

/** Which call completed, and the trace it belongs to. */
export interface AsyncCallRef {
  workspaceId: string;
  taskId: string;
  turnId: string;
  callId: string;
  correlationId: string;
}

export type CompletionOutcome = { status: 'ok'; result: JsonValue } | { status: 'error'; error: ToolError };

/**
 * Appends `ToolCallCompleted` to the call's turn stream. Expected revision 'any': the finisher is
 * not the turn's worker and must not fence it; the deterministic event id makes repeats no-ops.
 */
export async function appendToolCompletion(
  events: Pick<EventStore, 'append'>,
  call: AsyncCallRef,
  outcome: CompletionOutcome,
  actor: Actor,
): Promise<{ written: boolean }> {
  const data =
    outcome.status === 'ok'
      ? { callId: call.callId, status: 'ok' as const, result: outcome.result }
      : { callId: call.callId, status: 'error' as const, error: outcome.error };
  const event: NewEvent = {
    eventId: toolCompletionEventId(call.callId),
    type: 'ToolCallCompleted',
    data,
    metadata: { correlationId: call.correlationId, causationId: null, workspaceId: call.workspaceId, actor },
  };
  const appended = await events.append(streams.turn(call.turnId), [event], 'any');
  return { written: appended.written };
}

/** Wakes the task after a completion. Duplicates are harmless: the receiver re-reads the streams. */
export async function publishCompletionWake(bus: Pick<EventBus, 'publish'>, call: AsyncCallRef): Promise<void> {
  const message: WakeUpMessage = wakeUpMessage.parse({
    kind: 'wake',
    workspaceId: call.workspaceId,
    taskId: call.taskId,
    turnId: call.turnId,
    reason: 'job_completed',
  });
  // Keyed by task: the wake-up topic keeps one task's messages in order.
  await bus.publish(WAKE_UP_TOPIC, [
    {
      key: call.taskId,
      value: message,
      headers: { correlationId: call.correlationId, causationId: toolCompletionEventId(call.callId) },
    },
  ]);
}
