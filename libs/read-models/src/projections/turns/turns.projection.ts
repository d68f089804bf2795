import { turnEventTypes } from '@lomo/domain';
import type { ProjectionDefinition } from '../engine/projection-definition';
import { entityIdOf } from '../engine/stream-revisions';
import type { TurnDocument } from './turn.document';
import { blankTurn, evolveTurnDocument } from './turn.evolve';

const fromTurn = { owner: 'stream', category: 'turn' } as const;

/**
 * A turn with its steps and ledger, read by `turn(id)` and a task's turns. v2: each step keeps its
 * prompt's reference and how the prompt was built (`context`), for `step.context` and `step.prompt`.
 */
export const turnsProjection: ProjectionDefinition<TurnDocument> = {
  name: 'turns',
  version: 2,
  categories: ['turn'],
  handles: [...turnEventTypes],
  indexes: [{ fields: { workspaceId: 1, taskId: 1, startedAt: -1 } }],
  ownership: {
    taskId: fromTurn,
    reason: fromTurn,
    status: fromTurn,
    generation: fromTurn,
    lease: fromTurn,
    steps: fromTurn,
    calls: fromTurn,
    waitingOn: fromTurn,
    summary: fromTurn,
    error: fromTurn,
    cancelled: fromTurn,
    startedAt: fromTurn,
    lastActivityAt: fromTurn,
    endedAt: fromTurn,
  },
  documentIds: (event) => [entityIdOf(event.metadata.streamId)],
  blank: blankTurn,
  evolve: evolveTurnDocument,
};
