import { AggregateStream } from '@lomo/command-handling';
import { streams } from '@lomo/contracts';
import { turnDecider, turnEventTypes, type TurnEvent, type TurnState } from '@lomo/domain';
import type { EventStore } from '@lomo/eventstore';

/** A turn as the worker holding it keeps it in memory, with the revision it last saw (the fence). */
export class TurnView extends AggregateStream<TurnEvent, TurnState> {
  private constructor(readonly turnId: string) {
    super(streams.turn(turnId), turnDecider, turnEventTypes);
  }

  static async load(store: EventStore, turnId: string): Promise<TurnView> {
    const view = new TurnView(turnId);
    view.apply(await store.readStream(view.streamId));
    return view;
  }
}
