import type { EventEnvelope } from '@lomo/contracts';
import { SqliteEventStore, type ImportedEvent } from '@lomo/eventstore';

/**
 * An in-memory SQLite event store holding `events` (each stream's events in their order, with
 * their ids, metadata and times) and then `appended` on their streams: what a replayed step's
 * assembler reads and writes instead of the real store. Closed by the caller.
 */
export async function copyIntoMemory(
  events: readonly EventEnvelope[],
  appended: readonly EventEnvelope[] = [],
): Promise<SqliteEventStore> {
  const copy = new SqliteEventStore({ filename: ':memory:' });
  try {
    const byStream = new Map<string, ImportedEvent[]>();
    for (const e of [...events, ...appended]) {
      const list = byStream.get(e.metadata.streamId) ?? [];
      list.push(imported(e));
      byStream.set(e.metadata.streamId, list);
    }
    for (const [streamId, list] of byStream) await copy.appendImported(streamId, list, 'no_stream');
    return copy;
  } catch (error) {
    await copy.close();
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
