import type { WriteMetadata } from '@lomo/contracts';
import type { EventStore } from '../event-store.port';

/** An event as an older version of the code stored it: no validation, any schema version. */
export interface RawStoredEvent {
  streamId: string;
  eventId: string;
  type: string;
  schemaVersion: number;
  data: Record<string, unknown>;
  metadata: WriteMetadata;
}

/** What the shared contract suite needs from one adapter. */
export interface EventStoreHarness {
  /** A store on fresh, empty storage. */
  readonly store: EventStore;
  /** Another instance on the same storage (its own connection), as another process would have. */
  openAnother(): Promise<EventStore>;
  /** Appends a raw event at the stream's next revision, bypassing validation (upcasting tests). */
  insertRaw?(event: RawStoredEvent): Promise<void>;
  /** Closes every instance the harness opened and removes the storage. */
  dispose(): Promise<void>;
}

export type EventStoreHarnessFactory = () => Promise<EventStoreHarness>;
