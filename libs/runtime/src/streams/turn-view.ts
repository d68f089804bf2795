import { streams, type EventEnvelope } from '@lomo/contracts';
import { turnDecider, type TurnEvent, type TurnState } from '@lomo/domain';
import type { EventStore } from '@lomo/eventstore';
import { asTurnEvent } from '../events/domain-events';

/** A turn as the worker holding it keeps it in memory, with the revision it last saw. */
export class TurnView {
  private constructor(
    readonly turnId: string,
    public state: TurnState,
    public revision: number | 'no_stream',
  ) {}

  static async load(store: EventStore, turnId: string): Promise<TurnView> {
    const view = new TurnView(turnId, turnDecider.initialState(), 'no_stream');
    view.apply(await store.readStream(streams.turn(turnId)));
    return view;
  }

  get streamId(): string {
    return streams.turn(this.turnId);
  }

  /** Folds only the events appended since the revision last seen. */
  async catchUp(store: EventStore): Promise<EventEnvelope[]> {
    const from = this.revision === 'no_stream' ? 0 : this.revision + 1;
    const fresh = await store.readStream(this.streamId, { fromRevision: from });
    this.apply(fresh);
    return fresh;
  }

  apply(envelopes: readonly EventEnvelope[]): void {
    for (const envelope of envelopes) {
      this.revision = envelope.metadata.revision;
      const event = asTurnEvent(envelope);
      if (event !== undefined) this.state = turnDecider.evolve(this.state, event);
    }
  }

  /** Folds events this worker just appended, ending at `revision`, without reading them back. */
  applyOwn(events: readonly TurnEvent[], revision: number): void {
    for (const event of events) this.state = turnDecider.evolve(this.state, event);
    this.revision = revision;
  }
}
