import { streams } from '@lomo/contracts';
import { memoryDecider, type MemoryEvent, type MemoryState } from '@lomo/domain';
import type { EventStore } from '@lomo/eventstore';

interface Cached {
  revision: number;
  state: MemoryState;
}

/**
 * A person's memory state, folded once and then only forward: each call asks the store for the
 * stream's revision (one cheap read) and folds the events after the cached one, so asking at every
 * step costs what is new, not the stream's length.
 */
export class MemoryStreamCache {
  private readonly cached = new Map<string, Cached>();

  constructor(
    private readonly store: Pick<EventStore, 'readStream' | 'streamRevision'>,
    private readonly limit = 1_000,
  ) {}

  async state(workspaceId: string, userId: string): Promise<{ state: MemoryState; revision: number | 'no_stream' }> {
    const stream = streams.memory(workspaceId, userId);
    const revision = await this.store.streamRevision(stream);
    if (revision === 'no_stream') return { state: memoryDecider.initialState(), revision };
    const known = this.cached.get(stream);
    if (known !== undefined && known.revision === revision) return known;
    let state = known?.state ?? memoryDecider.initialState();
    const from = known === undefined ? 0 : known.revision + 1;
    const events = await this.store.readStream(stream, { fromRevision: from });
    let last = known?.revision ?? -1;
    for (const e of events) {
      state = memoryDecider.evolve(state, { type: e.type, data: e.data } as MemoryEvent);
      last = e.metadata.revision;
    }
    const next = { state, revision: last };
    if (this.cached.size >= this.limit && !this.cached.has(stream))
      this.cached.delete(this.cached.keys().next().value!);
    this.cached.set(stream, next);
    return next;
  }
}
