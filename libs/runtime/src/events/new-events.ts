import type { Actor, IdGenerator, NewEvent } from '@lomo/contracts';
import { traceContext } from '@lomo/observability';

/** Who writes and in which trace; the runtime adds its execution generation to its own writes. */
export interface WriteContext {
  workspaceId: string;
  actor: Actor;
  generation?: number;
  /** Used when no trace context is active (timers, the watchdog): the turn or task id. */
  fallbackCorrelationId: string;
}

export const runtimeActor: Actor = { kind: 'system', component: 'executor' };

/**
 * Domain events (type + data) become events to append. `eventIds` lets a caller derive ids
 * (e.g. from a call id) so a repeated write by a stale worker lands on the same id.
 */
export function toNewEvents(
  events: readonly { type: string; data: unknown }[],
  context: WriteContext,
  ids: IdGenerator,
  eventIds?: readonly string[],
): NewEvent[] {
  const trace = traceContext.current();
  return events.map((event, i) => ({
    eventId: eventIds?.[i] ?? ids.uuid(),
    type: event.type,
    data: event.data,
    metadata: {
      correlationId: trace?.correlationId ?? context.fallbackCorrelationId,
      causationId: trace?.causationId ?? null,
      workspaceId: context.workspaceId,
      actor: context.actor,
      ...(context.generation !== undefined ? { generation: context.generation } : {}),
    },
  }));
}
