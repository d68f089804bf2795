import { handleCommand } from '@lomo/command-handling';
import {
  deterministicUuid,
  streams,
  WAKE_UP_TOPIC,
  wakeUpMessage,
  type Actor,
  type WakeUpMessage,
} from '@lomo/contracts';
import type { EventBus } from '@lomo/bus';
import { turnDecider, turnEventTypes } from '@lomo/domain';
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
 * Records `ToolCallCompleted` on the call's turn stream through the turn decider (a completed call
 * is a no-op repeat). The finisher is not the turn's worker: it carries no generation, and on a
 * conflict it decides again on fresh state rather than fencing anyone; the worker's own next
 * append then conflicts once and re-reads. The event id derives from the call id, so two finishers
 * racing land on one event.
 */
export async function appendToolCompletion(
  events: EventStore,
  call: AsyncCallRef,
  outcome: CompletionOutcome,
  actor: Actor,
): Promise<{ written: boolean }> {
  const completion =
    outcome.status === 'ok'
      ? { type: 'CompleteToolCall' as const, callId: call.callId, status: 'ok' as const, result: outcome.result }
      : { type: 'CompleteToolCall' as const, callId: call.callId, status: 'error' as const, error: outcome.error };
  const result = await handleCommand(events, streams.turn(call.turnId), turnDecider, completion, {
    eventTypes: turnEventTypes,
    metadata: { correlationId: call.correlationId, causationId: null, workspaceId: call.workspaceId, actor },
    ids: { uuid: () => toolCompletionEventId(call.callId) },
    eventIdFor: () => toolCompletionEventId(call.callId),
  });
  return { written: result.changed };
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
