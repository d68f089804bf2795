import { streams } from '@lomo/contracts';
import { foldMemory, memoryDecider, type MemoryEvent, type MemoryState } from '@lomo/domain';
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
    const from = known === undefined ? 0 : known.revision + 1;
    const events = await this.store.readStream(stream, { fromRevision: from });
    // One batch fold (linear in the events, however large the state: see foldMemory).
    const state = foldMemory(
      known?.state ?? memoryDecider.initialState(),
      events.map((e) => ({ type: e.type, data: e.data }) as MemoryEvent),
    );
    const last = events.length > 0 ? events[events.length - 1]!.metadata.revision : (known?.revision ?? -1);
    return this.keep(stream, { state, revision: last });
  }

  /** The cached fold, if any, without asking the store (a writer catches it up itself). */
  known(workspaceId: string, userId: string): Cached | undefined {
    return this.cached.get(streams.memory(workspaceId, userId));
  }

  /** A fold a writer holds after its own append (the state at `revision`), so the next read starts there. */
  remember(workspaceId: string, userId: string, state: MemoryState, revision: number): void {
    const stream = streams.memory(workspaceId, userId);
    const known = this.cached.get(stream);
    if (known === undefined || known.revision < revision) this.keep(stream, { state, revision });
  }

  private keep(stream: string, next: Cached): Cached {
    if (this.cached.size >= this.limit && !this.cached.has(stream))
      this.cached.delete(this.cached.keys().next().value!);
    this.cached.set(stream, next);
    return next;
  }
}
