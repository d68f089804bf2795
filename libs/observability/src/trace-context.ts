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
