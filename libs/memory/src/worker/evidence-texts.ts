import { streams, type EventEnvelope } from '@lomo/contracts';
import type { EvidenceSource } from '@lomo/contracts';
import type { EventStore } from '@lomo/eventstore';

/**
 * Where evidence's words are (memory events never copy them): a message in the inbox of the task
 * it was delivered to, an observation in the turn's committed step that made the call. Read on
 * demand and cached per stream read, since a forgetting's re-extraction reads many at once.
 */
export class EvidenceTexts {
  constructor(private readonly store: Pick<EventStore, 'readStream'>) {}

  async textOf(source: EvidenceSource, cache = new Map<string, EventEnvelope[]>()): Promise<string | undefined> {
    if (source.kind === 'message') {
      if (source.taskId === undefined) return undefined;
      const events = await this.read(streams.task(source.taskId), cache);
      const delivered = events.find(
        (e) => e.type === 'MessageDeliveredToInbox' && (e.data as { messageId: string }).messageId === source.messageId,
      );
      return delivered === undefined ? undefined : (delivered.data as { text: string }).text;
    }
    const events = await this.read(streams.turn(source.turnId), cache);
    for (const e of events) {
      if (e.type !== 'ModelStepCommitted') continue;
      const intents = (e.data as { toolCallIntents: { callId: string; arguments: unknown }[] }).toolCallIntents;
      const intent = intents.find((i) => i.callId === source.callId);
      if (intent !== undefined) return observationText(intent.arguments);
    }
    return undefined;
  }

  private async read(stream: string, cache: Map<string, EventEnvelope[]>): Promise<EventEnvelope[]> {
    const known = cache.get(stream);
    if (known !== undefined) return known;
    const events = await this.store.readStream(stream);
    cache.set(stream, events);
    return events;
  }
}

/** What a generation call says about taste: its prompt (and style), not its ids or sizes. */
export function observationText(args: unknown): string {
  if (args === null || typeof args !== 'object') return String(args);
  const a = args as Record<string, unknown>;
  const parts = ['prompt', 'style', 'description', 'title']
    .map((k) => a[k])
    .filter((v): v is string => typeof v === 'string' && v.trim() !== '');
  return parts.length > 0 ? parts.join('. ') : JSON.stringify(args);
}
