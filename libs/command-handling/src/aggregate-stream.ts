import type { Actor, EventEnvelope, IdGenerator, WriteMetadata } from '@lomo/contracts';
import type { AppendResult, EventStore } from '@lomo/eventstore';
import type { DomainEvent, FoldingDecider, KnownEventTypes } from './domain-event';
import { toNewEvents } from './write-context';

type Folding<E extends DomainEvent, S> = Pick<FoldingDecider<never, E, S>, 'initialState' | 'evolve' | 'foldAll'>;

export interface AppendOptions {
  /** Derives an event's id where a repeat must land on the same id; fresh ids otherwise. */
  eventIdFor?: (event: DomainEvent, index: number) => string | undefined;
  /**
   * The revision the events were decided at, when the caller decided them earlier (the runtime's
   * planner); default: the revision last seen. Appending at any other revision would let a
   * decision made on stale state through.
   */
  expected?: number | 'no_stream';
}

/**
 * One aggregate's stream as a writer keeps it: the folded state, the revision it was read at and
 * the workspace it belongs to (from the events' metadata; the domain does not carry it). Appends go
 * at the revision last seen, so a concurrent writer makes the store refuse them (ConcurrencyError):
 * that refusal is the fence, and this class never retries it. Callers decide (handleCommand retries
 * a command on fresh state; the runtime's fenced appends re-read and check their generation).
 * After a refusal only the new events are read and folded, so a write costs the same at revision
 * 10 and 10 000.
 */
export class AggregateStream<E extends DomainEvent, S> {
  private readonly known: ReadonlySet<string>;
  state: S;
  revision: number | 'no_stream' = 'no_stream';
  workspaceId: string | undefined;

  constructor(
    readonly streamId: string,
    private readonly decider: Folding<E, S>,
    eventTypes: KnownEventTypes<E>,
    initial?: { state: S; revision: number | 'no_stream' },
  ) {
    this.known = new Set<string>(eventTypes);
    this.state = initial?.state ?? decider.initialState();
    if (initial) this.revision = initial.revision;
  }

  /**
   * Reads and folds the stream. `fromRevision` folds only the tail (for deciders whose rule needs
   * only the events after a known point, such as a message's routing); the revision is still the
   * stream's last one, so appends stay fenced.
   */
  static async read<E extends DomainEvent, S>(
    store: EventStore,
    streamId: string,
    decider: Folding<E, S>,
    eventTypes: KnownEventTypes<E>,
    options: { fromRevision?: number } = {},
  ): Promise<AggregateStream<E, S>> {
    const stream = new AggregateStream(streamId, decider, eventTypes);
    if (options.fromRevision !== undefined && options.fromRevision > 0) {
      stream.revision = options.fromRevision - 1;
      await stream.catchUp(store);
      // A tail read of a stream that has not reached fromRevision says nothing about its head.
      if (stream.revision === options.fromRevision - 1) stream.revision = await store.streamRevision(streamId);
      return stream;
    }
    stream.apply(await store.readStream(streamId));
    return stream;
  }

  /** From a fold the caller holds (state at `revision`): reads and folds only what came after it. */
  static async from<E extends DomainEvent, S>(
    store: EventStore,
    streamId: string,
    decider: Folding<E, S>,
    eventTypes: KnownEventTypes<E>,
    known: { state: S; revision: number | 'no_stream'; workspaceId?: string },
  ): Promise<AggregateStream<E, S>> {
    const stream = new AggregateStream(streamId, decider, eventTypes, known);
    stream.workspaceId = known.workspaceId;
    await stream.catchUp(store);
    return stream;
  }

  /** Reads only what was appended since the revision last seen. */
  async catchUp(store: EventStore): Promise<EventEnvelope[]> {
    const from = this.revision === 'no_stream' ? 0 : this.revision + 1;
    const fresh = await store.readStream(this.streamId, { fromRevision: from });
    this.apply(fresh);
    return fresh;
  }

  apply(envelopes: readonly EventEnvelope[]): void {
    const events: E[] = [];
    for (const envelope of envelopes) {
      // Already folded: two catch-ups of one shared stream that overlap (both read from the same
      // revision while neither had applied yet) must not fold the same event twice.
      if (this.revision !== 'no_stream' && envelope.metadata.revision <= this.revision) continue;
      this.workspaceId ??= envelope.metadata.workspaceId;
      this.revision = envelope.metadata.revision;
      if (!this.known.has(envelope.type)) continue;
      events.push({ type: envelope.type, data: envelope.data, recordedBy: envelope.metadata.actor } as E);
    }
    this.fold(events);
  }

  /** Folds events this writer just appended, ending at `revision`, without reading them back. */
  applyOwn(events: readonly E[], revision: number, recordedBy: Actor, workspaceId?: string): void {
    this.fold(events.map((event) => ({ ...event, recordedBy })));
    this.revision = revision;
    this.workspaceId ??= workspaceId;
  }

  private fold(events: readonly E[]): void {
    if (events.length === 0) return;
    if (this.decider.foldAll) this.state = this.decider.foldAll(this.state, events);
    else for (const event of events) this.state = this.decider.evolve(this.state, event);
  }

  /**
   * Appends `events` at the revision last seen and folds them. The one way production code writes
   * to the event store (test/integration/architecture/one-command-layer.int-spec.ts checks it);
   * a ConcurrencyError propagates unchanged.
   */
  async append(
    store: EventStore,
    events: readonly E[],
    metadata: WriteMetadata,
    ids: IdGenerator,
    options: AppendOptions = {},
  ): Promise<AppendResult> {
    const result = await store.append(
      this.streamId,
      toNewEvents(events, metadata, ids, options.eventIdFor),
      options.expected ?? this.revision,
    );
    if (result.written) this.applyOwn(events, result.nextExpectedRevision, metadata.actor, metadata.workspaceId);
    else await this.catchUp(store);
    return result;
  }
}
