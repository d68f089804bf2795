import { generationProjections } from '@lomo/generation';
import { eraseProjectionType, memoryProjections, readModelProjections, type AnyProjection } from '@lomo/read-models';
import { routingIndexProjection } from '@lomo/routing';
import { workspaceProjections } from '@lomo/workspace';

/**
 * Every projection the projector runs, in one list: ProjectorModule's default, and what the
 * operator's `lomo projections status | rebuild` look at.
 */
export const projectorProjections: readonly AnyProjection[] = [
  ...readModelProjections,
  eraseProjectionType(routingIndexProjection),
  ...workspaceProjections,
  ...generationProjections,
  ...memoryProjections,
];
