import { randomUUID } from 'node:crypto';
import { ANY } from '@eventstore/db-client';
import type { EventStore } from '../../event-store.port';
import type { EventStoreHarness, RawStoredEvent } from '../../testing/event-store-harness';
import { connectEsdbClient, type EsdbClient } from '../esdb-client';
import { encodeEvent } from '../event-codec';
import { EventStoreDbEventStore } from '../eventstoredb-event-store';
import { StreamNames } from '../stream-names';
import { FakeEsdbServer, type FakeEsdbServerOptions } from './fake-esdb-server';

/** A namespace no earlier run used, so a shared server looks empty to each harness. */
export const freshNamespace = (): string => `run-${randomUUID().replace(/-/g, '').slice(0, 20)}`;

/**
 * Contract harness on a real server: every harness gets its own stream namespace, so runs and
 * tests never see each other's events (nothing is deleted afterwards; use a throwaway server).
 */
export async function createEventStoreDbHarness(connectionString: string): Promise<EventStoreHarness> {
  const namespace = freshNamespace();
  const raw = connectEsdbClient(connectionString);
  return harness(namespace, raw, () => new EventStoreDbEventStore({ connectionString, streamNamespace: namespace }));
}

/**
 * Contract harness on the in-memory fake of the client: one fake server per harness, with another
 * namespace's events, another application's events, system events and projection links in $all.
 */
export async function createFakeEventStoreDbHarness(
  options: FakeEsdbServerOptions & { namespaced: boolean },
): Promise<EventStoreHarness> {
  const server = new FakeEsdbServer({ projections: true, ...options });
  const foreign = { type: 'TaskCreated', data: {}, metadata: { lomo: { schemaVersion: 2, appendId: randomUUID() } } };
  server.writeRaw(`${freshNamespace()}/task-${randomUUID()}`, [foreign]);
  server.writeRaw(`orders-${randomUUID()}`, [{ type: 'OrderPlaced', data: {}, metadata: {} }]);
  const namespace = options.namespaced ? freshNamespace() : undefined;
  return harness(
    namespace,
    server.client(),
    () => new EventStoreDbEventStore({ client: server.client(), streamNamespace: namespace, idleCheckpointMs: 20 }),
  );
}

async function harness(
  namespace: string | undefined,
  raw: EsdbClient,
  open: () => EventStore,
): Promise<EventStoreHarness> {
  const opened: EventStore[] = [];
  const openOne = () => {
    const store = open();
    opened.push(store);
    return store;
  };
  return {
    store: openOne(),
    openAnother: async () => openOne(),
    insertRaw: async (event: RawStoredEvent) => {
      const { streamId, schemaVersion, ...rest } = event;
      await raw.appendToStream(
        new StreamNames(namespace).physical(streamId),
        [encodeEvent(rest, schemaVersion, randomUUID())],
        {
          expectedRevision: ANY,
        },
      );
    },
    dispose: async () => {
      await Promise.all(opened.map((s) => s.close()));
      await raw.dispose();
    },
  };
}
