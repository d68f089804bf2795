import { randomUUID } from 'node:crypto';
import { ConcurrencyError, type ExpectedRevision, type NewEvent, type WriteMetadata } from '@lomo/contracts';
import type { Decider } from '@lomo/domain';
import type { EventStore } from '@lomo/eventstore';

/** A domain event as deciders see it: the store adds ids and metadata. */
export interface DomainEvent {
  type: string;
  data: unknown;
}

export interface HandleCommandOptions<E extends DomainEvent> {
  /**
   * The event types the decider folds. Events of other types on the stream are skipped rather
   * than misread (a newer writer may add types this reader does not know yet).
   */
  eventTypes: readonly E['type'][];
  /**
   * Event id of each new event. Derive it from the command's identity where a repeat must land
   * on the same id; the default is random, for appends whose idempotence the decider provides.
   */
  eventIdFor?: (event: E, index: number) => string;
  /** Read-decide-append rounds before a ConcurrencyError is given up on. Default 5. */
  maxAttempts?: number;
}

export interface HandleCommandResult<E, S> {
  /** What this call appended: empty when the decider found nothing to do (a repeat). */
  events: E[];
  /** The aggregate after the command. */
  state: S;
  /** The stream's last revision after the command, or 'no_stream'. */
  revision: number | 'no_stream';
}

/**
 * One command against one aggregate: read its stream, fold, decide, append at the revision read.
 * A concurrent writer makes the append fail with ConcurrencyError; the command is then decided
 * again on the fresh state (which may now say "nothing to do"), a few times at most. A DomainError
 * from the decider is a refusal and propagates unchanged.
 */
export async function handleCommand<C, E extends DomainEvent, S>(
  store: EventStore,
  streamId: string,
  decider: Decider<C, E, S>,
  command: C,
  metadata: WriteMetadata,
  options: HandleCommandOptions<E>,
): Promise<HandleCommandResult<E, S>> {
  const known = new Set<string>(options.eventTypes);
  const isKnown = (event: DomainEvent): event is E => known.has(event.type);
  const maxAttempts = options.maxAttempts ?? 5;
  for (let attempt = 1; ; attempt += 1) {
    const stored = await store.readStream(streamId);
    const state = stored
      .map(({ type, data }) => ({ type, data }))
      .filter(isKnown)
      .reduce(decider.evolve, decider.initialState());
    const last = stored.at(-1)?.metadata.revision;
    const expected: ExpectedRevision = last === undefined ? 'no_stream' : last;
    const events = decider.decide(command, state);
    if (events.length === 0) return { events, state, revision: last ?? 'no_stream' };
    const eventIdFor = options.eventIdFor ?? (() => randomUUID());
    const toAppend: NewEvent[] = events.map((event, index) => ({
      eventId: eventIdFor(event, index),
      type: event.type,
      data: event.data,
      metadata,
    }));
    try {
      const result = await store.append(streamId, toAppend, expected);
      return {
        events: result.written ? events : [],
        state: events.reduce(decider.evolve, state),
        revision: result.nextExpectedRevision,
      };
    } catch (error) {
      if (!(error instanceof ConcurrencyError) || attempt >= maxAttempts) throw error;
    }
  }
}
