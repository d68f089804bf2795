import { RelayHeaders, type MessageHandler } from '@lomo/bus';
import { traceContext } from '@lomo/observability';

/**
 * Runs a bus handler inside the trace context the message carries: the correlation id goes on,
 * and the event that was delivered becomes the cause of whatever the handler does next.
 */
export function withMessageTraceContext(handler: MessageHandler): MessageHandler {
  return (message, context) => {
    const correlationId = message.headers[RelayHeaders.correlationId];
    if (!correlationId) return handler(message, context);
    const causationId = message.headers[RelayHeaders.eventId] ?? message.headers[RelayHeaders.causationId] ?? null;
    return traceContext.run({ correlationId, causationId }, () => handler(message, context));
  };
}
