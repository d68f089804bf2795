import { eraseProjectionType, type AnyProjection } from './engine/projection-definition';
import { inboxItemsProjection } from './inbox/inbox-items.projection';
import { mainLineProjection } from './main-line/main-line.projection';
import { tasksProjection } from './tasks/tasks.projection';
import { turnsProjection } from './turns/turns.projection';

/** The first slice of read models (issue 5 item 3), as the projector runs them. */
export const readModelProjections: readonly AnyProjection[] = [
  eraseProjectionType(mainLineProjection),
  eraseProjectionType(tasksProjection),
  eraseProjectionType(inboxItemsProjection),
  eraseProjectionType(turnsProjection),
];
