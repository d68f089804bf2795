import type { EventStore } from '@lomo/eventstore';

/**
 * The ids of the bus dead letters operators have sent back, from their `OperatorActionRecorded`
 * events: the log is the record, so every process (and a later CLI run) sees the same answer.
 * Webhook letters need none of this: their own status says it.
 */
export async function redrivenBusLetterIds(events: Pick<EventStore, 'readAll'>): Promise<Set<string>> {
  const actions = await events.readAll({
    filter: { streamPrefixes: ['operator-'], eventTypes: ['OperatorActionRecorded'] },
  });
  const ids = new Set<string>();
  for (const event of actions) {
    const data = event.data as { action?: unknown; details?: { ids?: unknown } };
    if (data.action !== 'bus_dead_letters_redriven' || !Array.isArray(data.details?.ids)) continue;
    for (const id of data.details.ids) if (typeof id === 'string') ids.add(id);
  }
  return ids;
}
