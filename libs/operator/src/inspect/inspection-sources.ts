import type { BlobStore } from '@lomo/blobs';
import type { EventStore } from '@lomo/eventstore';

/** What the inspections read: the event log (reads only) and the BlobStore for archived prompts. */
export interface InspectionSources {
  events: Pick<EventStore, 'readStream' | 'readAll' | 'streamRevision' | 'headPosition'>;
  blobs: BlobStore;
}
