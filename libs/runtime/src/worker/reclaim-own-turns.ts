import type { Logger } from '@lomo/observability';
import type { ActiveWorkIndex } from '../active-work/active-work-index';
import type { WakeRequest } from './task-worker';

/**
 * At start, before any other work: the turns whose lease names this executor's own worker id
 * were held by the process this one replaces (a crash or SIGKILL leaves them leased, live for up
 * to a lease period). Nobody else may take a live lease, and waiting for it to expire is what made
 * recovery slow, so this process wakes each one now. The wake plans a TakeLease under the same
 * worker id (plan-turn.ts), which the turn decider grants at the next generation
 * (libs/domain/src/turn/decide-lease.ts): whatever the previous incarnation still had in flight is
 * refused by the turn stream's expected revision, as after any takeover.
 *
 * Only safe when no other live process has the same worker id: the persisted id is held under an
 * exclusive lock for that reason (identity/persisted-worker-id.ts); an explicitly configured id
 * must be unique by deployment (one pod per StatefulSet ordinal).
 *
 * Returns the number of turns woken; their runs go on in the background like any wake.
 */
export function reclaimOwnTurns(
  index: Pick<ActiveWorkIndex, 'leasedTo'>,
  workerId: string,
  wake: (request: WakeRequest) => Promise<void>,
  logger: Logger,
): number {
  const own = index.leasedTo(workerId);
  for (const turn of own) {
    logger.info({ ...turn, workerId }, 'reclaiming a turn this worker id held before the restart');
    void wake({ taskId: turn.taskId, reason: 'resume' });
  }
  return own.length;
}
