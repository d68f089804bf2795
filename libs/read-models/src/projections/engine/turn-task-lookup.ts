import { streams } from '@lomo/contracts';
import type { EventStore } from '@lomo/eventstore';
import type { KnownEvent } from './known-event';
import type { EngineContext } from './projection-engine';

/**
 * turnId -> taskId, which only a turn stream's first event (TurnStarted) carries. Learned from
 * the events the engines see (a turn's TurnStarted comes before its other events), else read
 * from the store. The pair never changes, so caching is safe across instances.
 */
export class TurnTaskLookup implements EngineContext {
  private readonly tasks = new Map<string, string>();

  constructor(
    private readonly events: Pick<EventStore, 'readStream'>,
    private readonly capacity = 200_000,
  ) {}

  observe(event: KnownEvent): void {
    if (event.type === 'TurnStarted') this.remember(event.data.turnId, event.data.taskId);
  }

  knownTaskOfTurn(turnId: string): string | undefined {
    return this.tasks.get(turnId);
  }

  async taskOfTurn(turnId: string): Promise<string | undefined> {
    const known = this.tasks.get(turnId);
    if (known !== undefined) return known;
    const [first] = await this.events.readStream(streams.turn(turnId), { fromRevision: 0, maxCount: 1 });
    if (first === undefined || first.type !== 'TurnStarted') return undefined;
    const taskId = (first as Extract<KnownEvent, { type: 'TurnStarted' }>).data.taskId;
    this.remember(turnId, taskId);
    return taskId;
  }

  private remember(turnId: string, taskId: string): void {
    if (this.tasks.size >= this.capacity) {
      const oldest = this.tasks.keys().next();
      if (!oldest.done) this.tasks.delete(oldest.value);
    }
    this.tasks.set(turnId, taskId);
  }
}
