import { ConcurrencyError } from '@lomo/contracts';
import type { EventStore } from '@lomo/eventstore';

/**
 * Wraps a worker's store to record the ConcurrencyErrors its append throws: proof that a refusal
 * came from the store's expected-revision check, not from the worker's own comparison.
 */
export class RefusalRecorder {
  readonly refusals: ConcurrencyError[] = [];

  wrap = (store: EventStore): EventStore => ({
    append: async (streamId, events, expected) => {
      try {
        return await store.append(streamId, events, expected);
      } catch (error) {
        if (error instanceof ConcurrencyError) this.refusals.push(error);
        throw error;
      }
    },
    readStream: (streamId, options) => store.readStream(streamId, options),
    streamRevision: (streamId) => store.streamRevision(streamId),
    readAll: (options) => store.readAll(options),
    headPosition: () => store.headPosition(),
    subscribeToAll: (options, handler) => store.subscribeToAll(options, handler),
    getCheckpoint: (id) => store.getCheckpoint(id),
    saveCheckpoint: (id, position) => store.saveCheckpoint(id, position),
    close: () => store.close(),
  });
}
