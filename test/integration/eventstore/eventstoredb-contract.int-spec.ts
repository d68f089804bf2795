import { randomUUID } from 'node:crypto';
import { openEventStoreDb } from '@lomo/eventstore';
import {
  EventStoreDbEventStore,
  createEventStoreDbHarness,
  describeEventStoreContract,
  newTurnStreamId,
  turnStarted,
} from '@lomo/eventstore/testing';

/**
 * The shared EventStore contract against a real EventStoreDB / KurrentDB, whenever EVENTSTORE_URL
 * names one (e.g. `esdb://localhost:2113?tls=false`). Each harness works in a fresh stream
 * namespace, so a server can be reused across runs. Without the variable the suite is not
 * registered, and the test below says so in its name and on the console.
 *
 * Expected against a real server: "ids stored in another stream are a conflict" fails, because
 * EventStoreDB does not index event ids across streams (see eventstoredb-event-store.ts).
 */
const url = process.env.EVENTSTORE_URL?.trim() || undefined;
const SKIPPED =
  'EventStoreDB contract suite: SKIPPED — EVENTSTORE_URL is not set; the adapter is not exercised against a real server on this machine';
const UNREACHABLE = 'esdb://127.0.0.1:1?tls=false';

if (url !== undefined) {
  describeEventStoreContract(
    `EventStoreDB at ${url.replace(/\/\/[^@/]*@/, '//***@')}`,
    () => createEventStoreDbHarness(url),
    // EventStoreDB checks event ids within a stream only.
    { rawInsert: true, uniqueIdsAcrossStreams: false },
  );
}

describe('EventStoreDB adapter, with or without a server', () => {
  it(url === undefined ? SKIPPED : 'EventStoreDB contract suite: running against EVENTSTORE_URL', async () => {
    // The library's entry point loads the adapter either way (no connection is opened until a
    // call); only the contract run needs a server.
    const probe = await openEventStoreDb({ connectionString: UNREACHABLE });
    expect(probe).toBeInstanceOf(EventStoreDbEventStore);
    await probe.close();
    if (url === undefined) {
      console.warn(SKIPPED);
      expect(process.env.EVENTSTORE_URL?.trim() ?? '').toBe('');
    } else {
      expect(url).toMatch(/^esdb(\+discover)?:\/\//);
    }
  });

  it('refuses an invalid event with INVALID_EVENT before any network call (the server is unreachable)', async () => {
    const store = new EventStoreDbEventStore({ connectionString: UNREACHABLE });
    try {
      const streamId = newTurnStreamId();
      const invalid = { ...turnStarted(streamId), data: { turnId: 'not-a-uuid', reason: 'message' } };
      await expect(store.append(streamId, [invalid], 'no_stream')).rejects.toMatchObject({
        code: 'INVALID_EVENT',
        retriable: false,
      });
      // The same call with a valid event does reach the network, and the refused connection is a
      // retriable STORE_UNAVAILABLE: so the INVALID_EVENT above came before any network call.
      await expect(store.append(streamId, [turnStarted(streamId, randomUUID())], 'no_stream')).rejects.toMatchObject({
        code: 'STORE_UNAVAILABLE',
        retriable: true,
      });
    } finally {
      await store.close();
    }
  });
});
