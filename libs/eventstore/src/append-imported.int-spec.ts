import { ConcurrencyError, ValidationError } from '@lomo/contracts';
import type { ImportedEvent } from './event-store.port';
import { createFakeEventStoreDbHarness } from './eventstoredb/testing/eventstoredb-harness';
import { createSqliteHarness } from './testing/sqlite-harness';
import type { EventStoreHarness } from './testing/event-store-harness';
import { newTurnStreamId, sampleEventsFor } from './testing/sample-events';

// `appendImported`, the operator import's append (libs/operator/src/transfer): each event keeps
// the time it was exported with, where a plain append takes the store's. Both adapters: SQLite,
// and EventStoreDB through the in-memory fake of its client.
describe.each([
  ['SQLite', () => createSqliteHarness({ now: () => new Date('2031-01-01T00:00:00.000Z') })],
  ['EventStoreDB (fake client)', () => createFakeEventStoreDbHarness({ namespaced: true })],
])('EventStore.appendImported on %s', (_name, factory: () => Promise<EventStoreHarness>) => {
  let harness: EventStoreHarness;
  beforeEach(async () => {
    harness = await factory();
  });
  afterEach(() => harness.dispose());

  const at = (day: number) => `2026-03-0${day}T10:00:00.000Z`;
  const imported = (streamId: string, count: number, from = 0): ImportedEvent[] =>
    sampleEventsFor(streamId, count, from).map((event, i) => ({ ...event, occurredAt: at(from + i + 1) }));

  it('stores each event with its own occurredAt, read back by stream and in $all, at the revisions asked for', async () => {
    const store = harness.store;
    const streamId = newTurnStreamId();
    await store.appendImported!(streamId, imported(streamId, 2), 'no_stream');
    await store.appendImported!(streamId, imported(streamId, 1, 2), 1);
    const read = await store.readStream(streamId);
    expect(read.map((e) => [e.metadata.revision, e.metadata.occurredAt])).toEqual([
      [0, at(1)],
      [1, at(2)],
      [2, at(3)],
    ]);
    const all = (await store.readAll()).filter((e) => e.metadata.streamId === streamId);
    expect(all.map((e) => e.metadata.occurredAt)).toEqual([at(1), at(2), at(3)]);
  });

  it('keeps the append rules: a wrong expectation is a conflict, a malformed time is refused, nothing written', async () => {
    const store = harness.store;
    const streamId = newTurnStreamId();
    await store.appendImported!(streamId, imported(streamId, 1), 'no_stream');
    await expect(store.appendImported!(streamId, imported(streamId, 1, 1), 'no_stream')).rejects.toBeInstanceOf(
      ConcurrencyError,
    );
    const [bad] = imported(streamId, 1, 1);
    await expect(store.appendImported!(streamId, [{ ...bad, occurredAt: 'yesterday' }], 0)).rejects.toBeInstanceOf(
      ValidationError,
    );
    expect(await store.streamRevision(streamId)).toBe(0);
  });

  it('leaves plain appends on the store’s own time', async () => {
    const store = harness.store;
    const streamId = newTurnStreamId();
    await store.appendImported!(streamId, imported(streamId, 1), 'no_stream');
    await store.append(streamId, sampleEventsFor(streamId, 1, 1), 0);
    const [first, second] = await store.readStream(streamId);
    expect(first.metadata.occurredAt).toBe(at(1));
    expect(second.metadata.occurredAt).not.toBe(at(1));
  });
});
