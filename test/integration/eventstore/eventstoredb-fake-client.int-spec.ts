import { describeEventStoreContract, createFakeEventStoreDbHarness } from '@lomo/eventstore/testing';

/**
 * The EventStoreDB adapter against an in-memory fake of `@eventstore/db-client`, so every line of
 * the adapter runs without a server; it proves nothing about a real server. The fake here rejects
 * event ids reused across streams, which a real server does not: the contract test "ids stored in
 * another stream are a conflict" fails against a real server (eventstoredb-event-store.spec.ts
 * shows the server's behaviour).
 */
for (const namespaced of [false, true]) {
  describeEventStoreContract(
    `EventStoreDB adapter on a fake client, ${namespaced ? 'with' : 'without'} a stream namespace (not a real server)`,
    () => createFakeEventStoreDbHarness({ namespaced, uniqueEventIdsAcrossStreams: true }),
    { rawInsert: true },
  );
}
