import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { ConcurrencyError, streams, type WriteMetadata } from '@lomo/contracts';
import { taskDecider, taskEventTypes } from '@lomo/domain';
import { SqliteEventStore, type EventStore } from '@lomo/eventstore';
import { SequentialIds } from '@lomo/testing';
import { handleCommand, type ConflictPolicy } from './handle-command';

const taskId = '0b9c6f3e-8a51-4d7e-9a35-2f7c1d4e5a60';
const stream = streams.task(taskId);
const metadata: WriteMetadata = {
  correlationId: 'corr-1',
  causationId: null,
  workspaceId: 'ws1',
  actor: { kind: 'system', component: 'router' },
};
const create = {
  type: 'CreateTask' as const,
  taskId,
  kind: 'persistent' as const,
  goal: 'Design a poster',
  language: 'en',
  originMessageId: '7d2a9c1e-3f4b-4a5c-9d6e-1f2a3b4c5d6e',
};
const deliver = (itemId: string, text: string) => ({ type: 'DeliverMessage' as const, itemId, text, language: 'en' });
const item1 = '11111111-1111-4111-8111-111111111111';
const item2 = '22222222-2222-4222-8222-222222222222';
const ids = new SequentialIds();
const options = { eventTypes: taskEventTypes, metadata, ids };
const policy = (p: ConflictPolicy) => ({ ...options, policy: p });

/** A store whose reads are followed, `times` times, by another writer's append (a lost race). */
function racingStore(store: EventStore, times: number, competitor: () => Promise<unknown>): EventStore {
  let left = times;
  return Object.assign(Object.create(store) as EventStore, {
    readStream: async (...args: Parameters<EventStore['readStream']>) => {
      const events = await store.readStream(...args);
      if (left > 0) {
        left -= 1;
        await competitor();
      }
      return events;
    },
  });
}

describe('one command handler: read, fold, decide, append at the revision read', () => {
  let dir: string;
  let store: SqliteEventStore;

  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'lomo-handle-command-'));
    store = new SqliteEventStore({ filename: path.join(dir, 'events.sqlite') });
  });

  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("creates a stream expecting 'no stream', then appends at the revision it read", async () => {
    const created = await handleCommand(store, stream, taskDecider, create, options);
    expect(created).toMatchObject({
      changed: true,
      writes: [{ streamId: stream, revision: 0 }],
      revision: 0,
      events: [{ type: 'TaskCreated' }],
      state: { status: 'active' },
    });
    const delivered = await handleCommand(store, stream, taskDecider, deliver(item1, 'hello'), options);
    expect(delivered.revision).toBe(1);
    expect((await store.readStream(stream)).map((e) => [e.type, e.metadata.correlationId])).toEqual([
      ['TaskCreated', 'corr-1'],
      ['MessageDeliveredToInbox', 'corr-1'],
    ]);
  });

  it('conflict policy "no-op repeat": appends nothing when the decider finds nothing to do', async () => {
    await handleCommand(store, stream, taskDecider, create, options);
    const again = await handleCommand(store, stream, taskDecider, create, options);
    // The outcome was already there: the result still names where, so a consistency token waits for it.
    expect(again).toMatchObject({
      changed: false,
      events: [],
      revision: 0,
      writes: [{ streamId: stream, revision: 0 }],
    });
    expect(await store.streamRevision(stream)).toBe(0);
  });

  it('conflict policy "retried": decides again on the fresh state after losing a race, and keeps both writes', async () => {
    await handleCommand(store, stream, taskDecider, create, options);
    const racing = racingStore(store, 1, () =>
      handleCommand(store, stream, taskDecider, deliver(item2, 'from the other writer'), options),
    );
    const result = await handleCommand(racing, stream, taskDecider, deliver(item1, 'mine'), options);
    expect(result).toMatchObject({ changed: true, revision: 2, writes: [{ streamId: stream, revision: 2 }] });
    const items = (await store.readStream(stream)).slice(1).map((e) => (e.data as { itemId: string }).itemId);
    expect(items).toEqual([item2, item1]);
  });

  it('a lost race that did the same work ends with nothing appended twice', async () => {
    await handleCommand(store, stream, taskDecider, create, options);
    const racing = racingStore(store, 1, () =>
      handleCommand(store, stream, taskDecider, deliver(item1, 'hello'), options),
    );
    const result = await handleCommand(racing, stream, taskDecider, deliver(item1, 'hello'), options);
    expect(result.events).toEqual([]);
    expect(await store.streamRevision(stream)).toBe(1);
  });

  it('gives up with the ConcurrencyError after maxAttempts lost races', async () => {
    await handleCommand(store, stream, taskDecider, create, options);
    let n = 0;
    const racing = racingStore(store, 3, () => {
      n += 1;
      const itemId = `3333333${n}-3333-4333-8333-333333333333`;
      return handleCommand(store, stream, taskDecider, deliver(itemId, `rival ${n}`), options);
    });
    await expect(
      handleCommand(
        racing,
        stream,
        taskDecider,
        deliver(item1, 'mine'),
        policy({ onConflict: 'retry', maxAttempts: 3 }),
      ),
    ).rejects.toBeInstanceOf(ConcurrencyError);
  });

  it('conflict policy "refused": a lost race is the ConcurrencyError, with nothing appended by this call', async () => {
    await handleCommand(store, stream, taskDecider, create, options);
    const racing = racingStore(store, 1, () =>
      handleCommand(store, stream, taskDecider, deliver(item2, 'from the other writer'), options),
    );
    await expect(
      handleCommand(racing, stream, taskDecider, deliver(item1, 'mine'), policy({ onConflict: 'refuse' })),
    ).rejects.toBeInstanceOf(ConcurrencyError);
    const items = (await store.readStream(stream)).slice(1).map((e) => (e.data as { itemId: string }).itemId);
    expect(items).toEqual([item2]);
  });

  it('a guard refuses before anything is decided', async () => {
    const refusal = new Error('not yours');
    await expect(
      handleCommand(store, stream, taskDecider, create, {
        ...options,
        guard: () => {
          throw refusal;
        },
      }),
    ).rejects.toBe(refusal);
    expect(await store.streamRevision(stream)).toBe('no_stream');
  });

  it('records who wrote an event: folded events carry the stored actor (recordedBy)', async () => {
    const seen: unknown[] = [];
    const watching = {
      ...taskDecider,
      evolve: (s: Parameters<typeof taskDecider.evolve>[0], e: Parameters<typeof taskDecider.evolve>[1]) => {
        seen.push(e.recordedBy);
        return taskDecider.evolve(s, e);
      },
    };
    await handleCommand(store, stream, taskDecider, create, options);
    await handleCommand(store, stream, watching, deliver(item1, 'hi'), options);
    // Folded from the log (TaskCreated), then the writer's own event after its append.
    expect(seen).toEqual([metadata.actor, metadata.actor]);
  });

  it('passes a refusal through unchanged and writes nothing', async () => {
    await expect(handleCommand(store, stream, taskDecider, deliver(item1, 'hi'), options)).rejects.toMatchObject({
      code: 'TASK_NOT_FOUND',
    });
    expect(await store.streamRevision(stream)).toBe('no_stream');
  });
});
