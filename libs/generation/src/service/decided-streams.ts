import { AggregateStream, type DomainEvent, type FoldingDecider, type KnownEventTypes } from '@lomo/command-handling';
import { ConcurrencyError, type IdGenerator, type WriteMetadata } from '@lomo/contracts';
import type { EventStore } from '@lomo/eventstore';

/**
 * Streams of one aggregate kind kept folded between writes (least recently used out first), so
 * a job's hundredth progress event costs one append, not a re-read. A write decides on the state
 * folded so far and appends at its revision; a lost race folds only the new events and decides
 * again, so a repeat (another worker got there first) decides nothing.
 */
export class DecidedStreams<C, E extends DomainEvent, S> {
  private readonly cache = new Map<string, AggregateStream<E, S>>();

  constructor(
    private readonly store: EventStore,
    private readonly decider: FoldingDecider<C, E, S>,
    private readonly eventTypes: KnownEventTypes<E>,
    private readonly ids: IdGenerator,
    private readonly maxCached = 10_000,
    private readonly maxAttempts = 32,
  ) {}

  /** The stream folded up to what the store holds now. */
  async read(streamId: string): Promise<AggregateStream<E, S>> {
    const cached = this.cache.get(streamId);
    if (cached !== undefined) {
      this.touch(streamId, cached);
      await cached.catchUp(this.store);
      return cached;
    }
    const stream = await AggregateStream.read(this.store, streamId, this.decider, this.eventTypes);
    this.touch(streamId, stream);
    return stream;
  }

  /** The state folded so far, without a read (callers that accept a slightly old view). */
  peek(streamId: string): AggregateStream<E, S> | undefined {
    return this.cache.get(streamId);
  }

  /**
   * Decides `command` on the latest state and appends what it decided. `changed` is true only
   * for the writer whose append recorded the events. A refusal (the decider throws) propagates.
   */
  async write(
    streamId: string,
    command: C | ((state: S) => C),
    metadata: WriteMetadata,
    options: { fresh?: boolean; eventIdFor?: (event: DomainEvent, index: number) => string | undefined } = {},
  ): Promise<{ changed: boolean; events: E[]; state: S; revision: number | 'no_stream' }> {
    const stream =
      options.fresh === false ? (this.cache.get(streamId) ?? (await this.read(streamId))) : await this.read(streamId);
    for (let attempt = 1; ; attempt += 1) {
      const decided = this.decider.decide(
        typeof command === 'function' ? (command as (s: S) => C)(stream.state) : command,
        stream.state,
      );
      if (decided.length === 0) return { changed: false, events: [], state: stream.state, revision: stream.revision };
      try {
        const result = await stream.append(this.store, decided, metadata, this.ids, { eventIdFor: options.eventIdFor });
        return {
          changed: result.written,
          events: result.written ? decided : [],
          state: stream.state,
          revision: stream.revision,
        };
      } catch (error) {
        if (!(error instanceof ConcurrencyError) || attempt >= this.maxAttempts) throw error;
        await stream.catchUp(this.store);
      }
    }
  }

  forget(streamId: string): void {
    this.cache.delete(streamId);
  }

  private touch(streamId: string, stream: AggregateStream<E, S>): void {
    this.cache.delete(streamId);
    this.cache.set(streamId, stream);
    if (this.cache.size > this.maxCached) {
      const oldest = this.cache.keys().next().value;
      if (oldest !== undefined) this.cache.delete(oldest);
    }
  }
}
