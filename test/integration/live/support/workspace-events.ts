import * as path from 'node:path';
import { SqliteEventStore } from '@lomo/eventstore';
import type { RunningApi } from '../../api/support/standalone-api';

export interface LoggedEvent {
  eventId: string;
  streamId: string;
  type: string;
  workspaceId: string;
}

/** Every event in the app's store, in global order, read from the file by this (other) process. */
export async function storedEvents(api: RunningApi): Promise<LoggedEvent[]> {
  const store = new SqliteEventStore({ filename: path.join(api.dataDir, 'events.sqlite') });
  try {
    return (await store.readAll()).map((e) => ({
      eventId: e.metadata.eventId,
      streamId: e.metadata.streamId,
      type: e.type,
      workspaceId: e.metadata.workspaceId,
    }));
  } finally {
    await store.close();
  }
}
