import { eraseProjectionType, type AnyProjection } from '../engine/projection-definition';
import { memoriesProjection } from './memories.projection';

/**
 * The memory read model, as the projector runs it. Kept apart from readModelProjections (the
 * first slice, which rebuild threads load by name): like the workspace's and generation's, it is
 * rebuilt on the projector's own thread.
 */
export const memoryProjections: readonly AnyProjection[] = [eraseProjectionType(memoriesProjection)];
