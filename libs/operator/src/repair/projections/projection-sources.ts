import type { EventStore } from '@lomo/eventstore';
import type { AnyProjection, DocumentStore } from '@lomo/read-models';

/** The stores the projector uses, and the projections it runs (`projectorProjections` of @lomo/application). */
export interface ProjectionSources {
  events: Pick<EventStore, 'readAll' | 'readStream' | 'headPosition' | 'append'>;
  documents: DocumentStore;
  projections: readonly AnyProjection[];
}
