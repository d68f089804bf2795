import type { MessageHandler } from '../event-bus.port';
import { eventIdOf } from './relayed-message';

/** Where a consumer remembers the event ids it has handled. */
export interface ProcessedEventIds {
  has(eventId: string): boolean | Promise<boolean>;
  add(eventId: string): void | Promise<void>;
}

/**
 * Remembers the most recent `capacity` ids. Enough behind the relay, whose duplicates are
 * close to the originals (a re-published batch); a consumer that must never repeat an effect
 * keeps its ids durably, in the same transaction as the effect.
 */
export class InMemoryProcessedEventIds implements ProcessedEventIds {
  private readonly ids = new Set<string>();

  constructor(private readonly capacity = 100_000) {}

  has(eventId: string): boolean {
    return this.ids.has(eventId);
  }

  add(eventId: string): void {
    this.ids.add(eventId);
    // A Set iterates in insertion order: the first one is the oldest.
    if (this.ids.size > this.capacity) this.ids.delete(this.ids.values().next().value as string);
  }

  get size(): number {
    return this.ids.size;
  }
}

/**
 * Wraps a handler so a relayed event already handled is skipped. The id is recorded after the
 * handler succeeded, so a crash in between repeats the handler (at least once, never lost).
 * Messages without an event id pass through.
 */
export function dedupeByEventId(handler: MessageHandler, processed: ProcessedEventIds): MessageHandler {
  return async (message, context) => {
    const eventId = eventIdOf(message);
    if (eventId !== undefined && (await processed.has(eventId))) return;
    await handler(message, context);
    if (eventId !== undefined) await processed.add(eventId);
  };
}
