import type { Provider } from '@nestjs/common';
import { EVENT_STORE, type EventStore } from '@lomo/eventstore';
import { MemoryStreamCache } from '@lomo/memory';

/** The API process's folds of the memory streams its person commands decide on. */
export const MEMORY_COMMAND_STREAMS = Symbol('MEMORY_COMMAND_STREAMS');

/**
 * Few people act on their memory at once, and a fold of a 10 000-memory person is large: a small
 * cache, enough for a request and its confirmation, or a run of corrections, to fold only what is
 * new since the last command.
 */
export const MEMORY_COMMAND_FOLDS_KEPT = 16;

export const memoryCommandStreamsProvider: Provider = {
  provide: MEMORY_COMMAND_STREAMS,
  inject: [EVENT_STORE],
  useFactory: (store: EventStore) => new MemoryStreamCache(store, MEMORY_COMMAND_FOLDS_KEPT),
};
