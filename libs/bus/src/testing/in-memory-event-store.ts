import { ConcurrencyError, type EventEnvelope, type ExpectedRevision, type NewEvent } from '@lomo/contracts';
import type {
  AppendResult,
  EventFilter,
  EventHandler,
  EventStore,
  Position,
  ReadAllOptions,
  ReadStreamOptions,
  SubscribeOptions,
  Subscription,
} from '@lomo/eventstore';

/**
 * A small EventStore for tests of code that only reads and checkpoints (the relay): expected
 * revisions are checked, but event contracts are not validated and nothing is upcast.
 * Positions are the 1-based global index as a string.
 */
export class InMemoryEventStore implements EventStore {
  private readonly log: EventEnvelope[] = [];
  private readonly checkpoints = new Map<string, Position>();

  async append(
    streamId: string,
    events: readonly NewEvent[],
    expectedRevision: ExpectedRevision,
  ): Promise<AppendResult> {
    const current = this.lastRevision(streamId);
    const actual = current < 0 ? 'no_stream' : current;
    const ok =
      expectedRevision === 'any' ||
      (expectedRevision === 'no_stream' && current < 0) ||
      (expectedRevision === 'stream_exists' && current >= 0) ||
      expectedRevision === current;
    if (!ok) throw new ConcurrencyError(streamId, expectedRevision, actual);
    const occurredAt = new Date().toISOString();
    events.forEach((e, i) => {
      this.log.push({
        type: e.type,
        data: e.data,
        metadata: {
          ...e.metadata,
          eventId: e.eventId,
          streamId,
          revision: current + 1 + i,
          globalPosition: String(this.log.length + 1),
          occurredAt,
          schemaVersion: 1,
        },
      });
    });
    return {
      streamId,
      nextExpectedRevision: current + events.length,
      position: String(this.log.length),
      written: events.length > 0,
    };
  }

  async readStream(streamId: string, options: ReadStreamOptions = {}): Promise<EventEnvelope[]> {
    const all = this.log.filter((e) => e.metadata.streamId === streamId);
    const backwards = options.direction === 'backwards';
    const ordered = backwards ? [...all].reverse() : all;
    const from = options.fromRevision;
    const start =
      from === undefined || from === 'start' || from === 'end'
        ? ordered
        : ordered.filter((e) => (backwards ? e.metadata.revision <= from : e.metadata.revision >= from));
    return start.slice(0, options.maxCount ?? Number.MAX_SAFE_INTEGER);
  }

  async streamRevision(streamId: string): Promise<number | 'no_stream'> {
    const current = this.lastRevision(streamId);
    return current < 0 ? 'no_stream' : current;
  }

  async readAll(options: ReadAllOptions = {}): Promise<EventEnvelope[]> {
    const after =
      options.fromPosition === undefined || options.fromPosition === 'start' ? 0 : Number(options.fromPosition);
    const out: EventEnvelope[] = [];
    const max = options.maxCount ?? Number.MAX_SAFE_INTEGER;
    for (let i = after; i < this.log.length && out.length < max; i += 1) {
      if (matches(this.log[i], options.filter)) out.push(this.log[i]);
    }
    return out;
  }

  async headPosition(): Promise<Position | undefined> {
    return this.log.length === 0 ? undefined : String(this.log.length);
  }

  subscribeToAll(options: SubscribeOptions, handler: EventHandler): Subscription {
    let stopped = false;
    let position: Position | undefined;
    let markCaughtUp: () => void = () => undefined;
    const caughtUp = new Promise<void>((resolve) => (markCaughtUp = resolve));
    const done = (async () => {
      position =
        options.fromPosition === 'end'
          ? await this.headPosition()
          : options.fromPosition === 'start'
            ? undefined
            : (options.fromPosition ?? (options.subscriberId ? this.checkpoints.get(options.subscriberId) : undefined));
      while (!stopped) {
        const batch = await this.readAll({
          fromPosition: position ?? 'start',
          filter: options.filter,
          maxCount: options.batchSize ?? 100,
        });
        if (batch.length === 0) {
          markCaughtUp();
          await new Promise((r) => setTimeout(r, 10));
          continue;
        }
        for (const event of batch) {
          if (stopped) break;
          await handler(event);
          position = event.metadata.globalPosition;
          if (options.subscriberId) this.checkpoints.set(options.subscriberId, position);
        }
      }
    })();
    return {
      caughtUp,
      get position() {
        return position;
      },
      stop: async () => {
        stopped = true;
        await done.catch(() => undefined);
      },
      done,
    };
  }

  async getCheckpoint(subscriberId: string): Promise<Position | undefined> {
    return this.checkpoints.get(subscriberId);
  }

  async saveCheckpoint(subscriberId: string, position: Position): Promise<void> {
    this.checkpoints.set(subscriberId, position);
  }

  async close(): Promise<void> {
    // nothing to release
  }

  private lastRevision(streamId: string): number {
    let last = -1;
    for (const e of this.log) if (e.metadata.streamId === streamId) last = e.metadata.revision;
    return last;
  }
}

function matches(event: EventEnvelope, filter: EventFilter | undefined): boolean {
  if (!filter) return true;
  const prefixOk = !filter.streamPrefixes || filter.streamPrefixes.some((p) => event.metadata.streamId.startsWith(p));
  const typeOk = !filter.eventTypes || filter.eventTypes.includes(event.type);
  return prefixOk && typeOk;
}
