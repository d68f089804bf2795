import type { EventEnvelope, WriteMetadata } from '@lomo/contracts';

/** What the router writes because of a message: same correlation, caused by the message's event. */
export function routerMetadata(message: EventEnvelope): WriteMetadata {
  return {
    correlationId: message.metadata.correlationId,
    causationId: message.metadata.eventId,
    workspaceId: message.metadata.workspaceId,
    actor: { kind: 'system', component: 'router' },
  };
}
