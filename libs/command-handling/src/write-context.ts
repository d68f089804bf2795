import type { Actor, IdGenerator, NewEvent, WriteMetadata } from '@lomo/contracts';
import { traceContext } from '@lomo/observability';
import type { DomainEvent } from './domain-event';

/** Who writes, in which workspace and trace; the runtime adds its execution generation to its writes. */
export interface WriteContext {
  workspaceId: string;
  actor: Actor;
  generation?: number;
  /** Used when no trace context is active (timers, the watchdog): the turn or task id. */
  fallbackCorrelationId: string;
}

/** The metadata of a write: the active trace if any, else the context's fallback correlation id. */
export function metadataOf(context: WriteContext): WriteMetadata {
  const trace = traceContext.current();
  return {
    correlationId: trace?.correlationId ?? context.fallbackCorrelationId,
    causationId: trace?.causationId ?? null,
    workspaceId: context.workspaceId,
    actor: context.actor,
    ...(context.generation !== undefined ? { generation: context.generation } : {}),
  };
}

/**
 * Domain events become events to append. `eventIdFor` derives ids where a repeat must land on the
 * same id (a stale worker's duplicate, a redelivered message); otherwise ids are fresh.
 */
export function toNewEvents(
  events: readonly DomainEvent[],
  metadata: WriteMetadata,
  ids: IdGenerator,
  eventIdFor?: (event: DomainEvent, index: number) => string | undefined,
): NewEvent[] {
  return events.map((event, index) => ({
    eventId: eventIdFor?.(event, index) ?? ids.uuid(),
    type: event.type,
    data: event.data,
    metadata,
  }));
}
