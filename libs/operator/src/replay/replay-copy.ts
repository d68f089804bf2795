import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EventEnvelope } from '@lomo/contracts';
import { SqliteEventStore, type ImportedEvent } from '@lomo/eventstore';

/** A scratch event store a replayed step reads and writes instead of the real one. */
export interface ScratchStore {
  store: SqliteEventStore;
  /** Closes the store and deletes its file. */
  discard(): Promise<void>;
}

/**
 * A scratch SQLite event store (a file in a fresh temp directory: the adapter needs WAL, which an
 * in-memory database cannot have) holding `events` (each stream's in its order, with their ids,
 * metadata and times) and then `appended` on their streams.
 */
export async function copyIntoScratch(
  events: readonly EventEnvelope[],
  appended: readonly EventEnvelope[] = [],
): Promise<ScratchStore> {
  const dir = mkdtempSync(join(tmpdir(), 'lomo-replay-'));
  const store = new SqliteEventStore({ filename: join(dir, 'copy.sqlite'), synchronous: 'NORMAL' });
  const discard = async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const byStream = new Map<string, ImportedEvent[]>();
    for (const e of [...events, ...appended]) {
      const list = byStream.get(e.metadata.streamId) ?? [];
      list.push(imported(e));
      byStream.set(e.metadata.streamId, list);
    }
    for (const [streamId, list] of byStream) await store.appendImported(streamId, list, 'no_stream');
    return { store, discard };
  } catch (error) {
    await discard();
    throw error;
  }
}

function imported(e: EventEnvelope): ImportedEvent {
  const { eventId, correlationId, causationId, workspaceId, actor, generation, occurredAt } = e.metadata;
  return {
    eventId,
    type: e.type,
    data: e.data,
    metadata: { correlationId, causationId, workspaceId, actor, ...(generation !== undefined ? { generation } : {}) },
    occurredAt,
  };
}
