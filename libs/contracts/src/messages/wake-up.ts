import { z } from 'zod';
import { taskId, turnId, workspaceId } from '../ids';
import { wakeReason } from '../events/shared';

/** Topic of wake-up and cancel messages, published directly (not relayed), keyed by task id. */
export const WAKE_UP_TOPIC = 'lomo.wakeups';

/**
 * Wake-ups say "look at this task again"; duplicates are harmless because the receiver re-reads
 * the streams. A cancel reaches the worker holding the turn's lease so it aborts its model call.
 */
export const wakeUpMessage = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('wake'),
    workspaceId,
    taskId,
    turnId: turnId.optional(),
    generation: z.number().int().min(1).optional(),
    reason: wakeReason,
  }),
  z.strictObject({
    kind: z.literal('cancel'),
    workspaceId,
    taskId,
    turnId,
    reason: z.enum(['task_stopped', 'task_paused', 'operator']),
  }),
]);
export type WakeUpMessage = z.infer<typeof wakeUpMessage>;
