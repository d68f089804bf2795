import { randomUUID } from 'node:crypto';
import { traceContext, type TraceContext } from '@lomo/observability';

/** The request's trace (set by the HTTP trace middleware); a fresh one if it did not run. */
export function currentTrace(): TraceContext {
  return traceContext.current() ?? { correlationId: randomUUID(), causationId: null };
}
