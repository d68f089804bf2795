import type { EventEnvelope, ExpectedRevision, NewEvent } from '@lomo/contracts';

export const EVENT_STORE = Symbol('EVENT_STORE');

/** Opaque: only the store that produced it can interpret it. Never assume contiguity. */
export type Position = string;

export interface AppendResult {
  streamId: string;
  /** Revision of the last event of the stream after the append (0-based). */
  nextExpectedRevision: number;
  /** Position of the last appended event. */
  position: Position;
  /** False when the call was an idempotent repeat and nothing new was written. */
  written: boolean;
}

export interface ReadStreamOptions {
  /** Inclusive. 'start' = revision 0, 'end' = the last revision. Default: 'start' forwards, 'end' backwards. */
  fromRevision?: number | 'start' | 'end';
  direction?: 'forwards' | 'backwards';
  maxCount?: number;
}

export interface EventFilter {
  /** Stream id prefixes, e.g. "task-" or "main-ws1.". An event passes when any prefix matches. Empty = no constraint. */
  streamPrefixes?: readonly string[];
  /** Event types. Combined with prefixes by AND when both are given. Empty = no constraint. */
  eventTypes?: readonly string[];
}

export interface ReadAllOptions {
  /** Exclusive: events strictly after this position. Default: from the start. */
  fromPosition?: Position | 'start';
  filter?: EventFilter;
  maxCount?: number;
}

export interface SubscribeOptions {
  /** With an id, the subscription keeps a durable checkpoint and resumes from it. */
  subscriberId?: string;
  /** Exclusive. Overrides the stored checkpoint. 'end' = only events appended from now on. */
  fromPosition?: Position | 'start' | 'end';
  filter?: EventFilter;
  /** Events per read while catching up. */
  batchSize?: number;
}

export type EventHandler = (event: EventEnvelope) => Promise<void> | void;

/**
 * An event brought over from another store by the operator import (`lomo import`): it keeps the
 * time it first occurred, so read models rebuilt from it keep their times too.
 */
export interface ImportedEvent extends NewEvent {
  /** ISO 8601 with offset, as the exporting store reported it. */
  occurredAt: string;
}

/** A page of events in global order, handled as one (a projector applies it in one batch). */
export type EventBatchHandler = (events: readonly EventEnvelope[]) => Promise<void> | void;

export interface Subscription {
  /** Resolves once the subscription has read everything that existed when it started. */
  readonly caughtUp: Promise<void>;
  /**
   * Last position handled, or passed over because the filter excluded it (so a restart does not
   * scan the excluded events again). Checkpointed when durable.
   */
  readonly position: Position | undefined;
  /** Stops reading, waits for the handler in flight, saves the checkpoint. */
  stop(): Promise<void>;
  /** Resolves or rejects when the subscription ends (a handler error ends it). */
  readonly done: Promise<void>;
}

export interface EventStore {
  /**
   * Atomic per call. Throws ConcurrencyError on a mismatch, InvalidEventError etc. on bad input.
   * Idempotent as EventStoreDB: repeating a call whose event ids are all already in the stream, at
   * the revisions its exact expectation (number or 'no_stream') implies, or anywhere contiguous for
   * 'any' / 'stream_exists', returns `written: false`. Any other reuse of existing ids (partial
   * overlap, another expectation, another stream) is a ConcurrencyError.
   */
  append(streamId: string, events: readonly NewEvent[], expectedRevision: ExpectedRevision): Promise<AppendResult>;
  /**
   * Optional, for the operator import only: `append` of events from an export, each stored with
   * its own `occurredAt` instead of the store's clock. Same validation, expectations and
   * idempotency as `append`. The apps never call it: a live write's time is the store's.
   */
  appendImported?(
    streamId: string,
    events: readonly ImportedEvent[],
    expectedRevision: ExpectedRevision,
  ): Promise<AppendResult>;
  /** Parsed, upcast envelopes. An absent stream reads as []. */
  readStream(streamId: string, options?: ReadStreamOptions): Promise<EventEnvelope[]>;
  /** Last revision of a stream, or 'no_stream'. */
  streamRevision(streamId: string): Promise<number | 'no_stream'>;
  /** Events in global order. */
  readAll(options?: ReadAllOptions): Promise<EventEnvelope[]>;
  /** Position of the last event in the store, or undefined when empty. */
  headPosition(): Promise<Position | undefined>;
  subscribeToAll(options: SubscribeOptions, handler: EventHandler): Subscription;
  /**
   * Optional, for adapters that read in pages: the same subscription, handing each page read to
   * one call (every event once, in order). The position moves after the whole page, so a page
   * whose handler failed comes again: the handler must be idempotent per event.
   */
  subscribeToAllInBatches?(options: SubscribeOptions, handler: EventBatchHandler): Subscription;
  getCheckpoint(subscriberId: string): Promise<Position | undefined>;
  saveCheckpoint(subscriberId: string, position: Position): Promise<void>;
  close(): Promise<void>;
}
