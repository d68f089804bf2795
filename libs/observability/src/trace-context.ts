import { AsyncLocalStorage } from 'node:async_hooks';

/** Correlation and causation ids of the work in progress, carried across awaits. */
export interface TraceContext {
  correlationId: string;
  causationId: string | null;
}

const storage = new AsyncLocalStorage<TraceContext>();

export const traceContext = {
  run<T>(context: TraceContext, fn: () => T): T {
    return storage.run(context, fn);
  },
  current(): TraceContext | undefined {
    return storage.getStore();
  },
};

/**
 * Headers that carry the current trace context on a directly published message (wake-ups), so
 * the consumer continues the same correlation (read back by withMessageTraceContext).
 */
export function traceHeaders(context: TraceContext | undefined = traceContext.current()): Record<string, string> {
  if (!context) return {};
  return context.causationId === null
    ? { correlationId: context.correlationId }
    : { correlationId: context.correlationId, causationId: context.causationId };
}
