import { ConcurrencyError, type Actor } from '@lomo/contracts';
import {
  DomainError,
  TaskErrors,
  isTurnTerminal,
  taskDecider,
  turnDecider,
  existingTurn,
  type ExistingTurn,
  type TaskCommand,
} from '@lomo/domain';
import { toNewEvents } from '../events/new-events';
import { decideAll } from '../process/decide-all';
import { TaskView } from '../streams/task-view';
import { TurnView } from '../streams/turn-view';
import { publishWakeUp } from '../wakeups/publish-wake-up';
import { COMMAND_ATTEMPTS, type CommandDeps } from './command-deps';

export interface InterruptRequest {
  taskId: string;
  by: Actor;
  reason?: string;
}

export interface InterruptResult {
  /** False when the task already was in that state (a repeated request). */
  changed: boolean;
  cancelledTurnId?: string;
  taskRevision: number;
}

type Kind = 'stop' | 'pause';

const releaseReason = { completed: 'step_abandoned', failed: 'turn_failed', cancelled: 'turn_cancelled' } as const;

/**
 * Stop and pause, in DESIGN.md §4's order: the active turn is cancelled on its turn stream first
 * (from then on the worker holding it cannot append: its expected revision is gone), then the task
 * stream records the claims of uncommitted steps released, the turn closed and the task stopped or
 * paused, in one append; last, a cancel message tells the lease holder to abort its model call.
 */
export async function interruptTask(
  deps: CommandDeps,
  kind: Kind,
  request: InterruptRequest,
): Promise<InterruptResult> {
  // Survives a retry: the turn may be cancelled by this request before the task append conflicts.
  let cancelled = false;
  for (let attempt = 1; attempt <= COMMAND_ATTEMPTS; attempt += 1) {
    const task = await TaskView.load(deps.store, request.taskId);
    const existing = task.existing;
    if (existing === undefined || task.workspaceId === undefined)
      throw new DomainError(TaskErrors.TASK_NOT_FOUND, `No task ${request.taskId}`);
    const workspaceId = task.workspaceId;
    const write = { workspaceId, actor: request.by, fallbackCorrelationId: request.taskId };
    try {
      let turn: ExistingTurn | undefined;
      if (existing.activeTurnId !== null) {
        const view = await TurnView.load(deps.store, existing.activeTurnId);
        if (view.state.status !== 'none') {
          if (!isTurnTerminal(view.state)) {
            const reason = kind === 'stop' ? 'task_stopped' : 'task_paused';
            const events = turnDecider.decide({ type: 'CancelTurn', by: request.by, reason }, view.state);
            const result = await deps.store.append(view.streamId, toNewEvents(events, write, deps.ids), view.revision);
            view.applyOwn(events, result.nextExpectedRevision);
            cancelled = true;
          }
          turn = existingTurn(view.state);
        }
      }
      const commands: TaskCommand[] = [];
      const turnId = existing.activeTurnId ?? undefined;
      if (turnId !== undefined) {
        const outcome = turn !== undefined && isTurnTerminal(turn) ? turn.status : 'cancelled';
        const fromStep = turn === undefined ? 1 : turn.steps.length + 1;
        commands.push({ type: 'ReleaseClaims', turnId, step: fromStep, reason: releaseReason[outcome] });
        commands.push({ type: 'CloseTurn', turnId, outcome });
      }
      const reason = request.reason !== undefined ? { reason: request.reason } : {};
      commands.push(
        kind === 'stop'
          ? {
              type: 'StopTask',
              by: request.by,
              ...reason,
              ...(turnId !== undefined ? { cancelledTurnId: turnId } : {}),
            }
          : { type: 'PauseTask', by: request.by, ...reason },
      );
      const events = decideAll(taskDecider, task.state, commands);
      let revision = task.revision === 'no_stream' ? -1 : task.revision;
      if (events.length > 0) {
        const result = await deps.store.append(task.streamId, toNewEvents(events, write, deps.ids), task.revision);
        revision = result.nextExpectedRevision;
      }
      deps.logger.info(
        { taskId: request.taskId, workspaceId, kind, cancelledTurnId: turnId ?? null, changed: events.length > 0 },
        kind === 'stop' ? 'task stopped' : 'task paused',
      );
      if (cancelled && turnId !== undefined) await notifyHolder(deps, kind, workspaceId, request.taskId, turnId);
      return {
        changed: events.length > 0,
        ...(turnId !== undefined ? { cancelledTurnId: turnId } : {}),
        taskRevision: revision,
      };
    } catch (error) {
      if (!(error instanceof ConcurrencyError) || attempt === COMMAND_ATTEMPTS) throw error;
    }
  }
  throw new Error('unreachable');
}

/**
 * The lease holder may be in another process: the cancel goes on the wake-up topic, which every
 * executor reads with a group of its own. If it is lost, the holder still stops at its next
 * append or lease renewal, which the store refuses.
 */
async function notifyHolder(deps: CommandDeps, kind: Kind, workspaceId: string, taskId: string, turnId: string) {
  try {
    await publishWakeUp(deps.bus, {
      kind: 'cancel',
      workspaceId,
      taskId,
      turnId,
      reason: kind === 'stop' ? 'task_stopped' : 'task_paused',
    });
  } catch (error) {
    deps.logger.warn(
      { taskId, turnId, error: error instanceof Error ? error.message : String(error) },
      'cancel message not published; the lease holder stops at its next append',
    );
  }
}
