import type { OutgoingMessage } from '../event-bus.port';

/** The messages of one round for one topic, in store order. */
export interface RelayBatch {
  topic: string;
  messages: readonly OutgoingMessage[];
}

/**
 * Where an EventRelay writes its rounds. A fencing publisher makes the lease safe: once a newer
 * instance became active, anything an older one still tries is refused with RelayFencedError.
 */
export interface RelayPublisher {
  /**
   * Called each time this instance becomes active, before its first publish under `epoch`.
   * A fencing publisher fences every older writer here (Kafka: a new producer epoch).
   */
  activate(epoch: number): Promise<void>;
  /**
   * Resolves once the round is durably accepted. A fencing publisher makes the round visible
   * all at once or not at all, and refuses it when `epoch` is stale; an aborted `signal` (the
   * lease was lost) keeps a round that has not committed yet from committing.
   */
  publish(batches: readonly RelayBatch[], epoch: number, signal?: AbortSignal): Promise<void>;
  /** Releases connections. Idempotent. */
  close(): Promise<void>;
}
