import type { Actor, EventDataMap } from '@lomo/contracts';

/** Every event of an `artifact-{artifactId}` stream, named exactly as in the contracts registry. */
export const artifactEventTypes = [
  'ArtifactCreated',
  'ArtifactRevised',
  'FlowNodeRevised',
  'FlowStructureChanged',
  'ArtifactReferenced',
  'ArtifactDeletionRequested',
  'ArtifactDeleted',
] as const;

export type ArtifactEventType = (typeof artifactEventTypes)[number];

/** `{type, data}` of one artefact event; `recordedBy` is the stored actor when folded from the log. */
export type ArtifactEventOf<T extends ArtifactEventType> = { type: T; data: EventDataMap[T]; recordedBy?: Actor };

export type ArtifactEvent = { [T in ArtifactEventType]: ArtifactEventOf<T> }[ArtifactEventType];

export type ArtifactContentData = EventDataMap['ArtifactCreated']['content'];
export type DocumentTextData = Extract<ArtifactContentData, { type: 'document' }>['text'];
export type FlowNodeData = Extract<ArtifactContentData, { type: 'flow' }>['nodes'][number];
export type FlowEdgeData = Extract<ArtifactContentData, { type: 'flow' }>['edges'][number];
export type BlobRefData = Extract<ArtifactContentData, { type: 'blob' }>['blob'];
