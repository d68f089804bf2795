import type { BlobStore } from '@lomo/blobs';
import type { EventBus } from '@lomo/bus';
import type { LomoConfig } from '@lomo/config';
import type { EventStore } from '@lomo/eventstore';
import type { Logger } from '@lomo/observability';
import { createBus, openBlobStore, openEventStore } from '@lomo/platform';
import { createDocumentStore, projectorSettings, type DocumentStore } from '@lomo/read-models';

/** The stores the apps use, opened by the same functions (libs/platform/src/open-stores.ts). */
export interface OperatorStores {
  events: EventStore;
  documents: DocumentStore;
  blobs: BlobStore;
  /** Opened on demand: only the dead-letter and relay commands need it. */
  bus(): Promise<EventBus>;
  close(): Promise<void>;
}

export async function openOperatorStores(config: LomoConfig, logger: Logger): Promise<OperatorStores> {
  const closers: Array<() => Promise<unknown>> = [];
  try {
    const events = await openEventStore(config);
    closers.push(() => events.close());
    const documents = await createDocumentStore(projectorSettings(config), logger);
    closers.push(() => documents.close());
    const { blobs, client } = openBlobStore(config, logger);
    if (client !== undefined) closers.push(() => client.close());
    let bus: EventBus | undefined;
    return {
      events,
      documents,
      blobs,
      bus() {
        if (bus === undefined) {
          const opened = createBus(config, logger);
          closers.push(() => opened.close());
          bus = opened;
        }
        return Promise.resolve(bus);
      },
      async close() {
        for (const close of closers.reverse()) await close().catch(() => undefined);
      },
    };
  } catch (error) {
    for (const close of closers.reverse()) await close().catch(() => undefined);
    throw error;
  }
}
