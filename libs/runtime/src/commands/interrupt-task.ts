import { conflictRetry, decideAll, handleCommand, metadataOf, type StreamWrite } from '@lomo/command-handling';
import { streams, type Actor } from '@lomo/contracts';
import {
  isTurnTerminal,
  taskDecider,
  turnDecider,
  turnEventTypes,
  type TaskCommand,
  type TurnCommand,
  type TurnState,
} from '@lomo/domain';
import { retry } from '@lomo/resilience';
import { TaskView } from '../streams/task-view';
import { publishWakeUp } from '../wakeups/publish-wake-up';
import type { CommandDeps, TaskCommandResult } from './command-deps';
import { taskWorkspace } from './require-task';

export interface InterruptRequest {
  taskId: string;
  by: Actor;
  reason?: string;
}

export interface InterruptResult extends TaskCommandResult {
  cancelledTurnId?: string;
}

type Kind = 'stop' | 'pause';

const releaseReason = { completed: 'step_abandoned', failed: 'turn_failed', cancelled: 'turn_cancelled' } as const;

/**
 * Stop and pause, in DESIGN.md §4's order: the active turn is cancelled on its turn stream first
 * (from then on the worker holding it cannot append: its expected revision is gone), then the task
 * stream records the claims of uncommitted steps released, the turn closed and the task stopped or
 * paused, in one append; last, a cancel message tells the lease holder to abort its model call.
 * Both writes go through the command layer (libs/command-handling): the turn's cancel is a command
 * of its own (a repeat is a no-op), the task's batch is decided on the state read and appended at
 * that revision; a concurrent writer makes the whole request run again on fresh state.
 */
export async function interruptTask(
  deps: CommandDeps,
  kind: Kind,
  request: InterruptRequest,
): Promise<InterruptResult> {
  // Survives a retry: the turn may be cancelled by this request before the task append conflicts.
  let cancelled = false;
  const attempt = async (): Promise<InterruptResult> => {
    const task = await TaskView.load(deps.store, request.taskId);
    const workspaceId = taskWorkspace(task, request.taskId);
    const existing = task.existing;
    const metadata = metadataOf({ workspaceId, actor: request.by, fallbackCorrelationId: request.taskId });
    const turnId = existing?.activeTurnId ?? undefined;
    const writes: StreamWrite[] = [];
    let turn: TurnState | undefined;
    if (turnId !== undefined) {
      const reason = kind === 'stop' ? 'task_stopped' : 'task_paused';
      const cancel = (state: TurnState): TurnCommand[] =>
        state.status === 'none' || isTurnTerminal(state) ? [] : [{ type: 'CancelTurn', by: request.by, reason }];
      const result = await handleCommand(deps.store, streams.turn(turnId), turnDecider, cancel, {
        eventTypes: turnEventTypes,
        ids: deps.ids,
        metadata,
      });
      cancelled ||= result.changed;
      turn = result.state;
      writes.push(...result.writes);
    }
    const events = decideAll(taskDecider, task.state, taskCommands(kind, request, turnId, turn));
    if (events.length > 0) await task.append(deps.store, events, metadata, deps.ids);
    if (task.revision !== 'no_stream') writes.push({ streamId: task.streamId, revision: task.revision });
    deps.logger.info(
      { taskId: request.taskId, workspaceId, kind, cancelledTurnId: turnId ?? null, changed: events.length > 0 },
      kind === 'stop' ? 'task stopped' : 'task paused',
    );
    if (cancelled && turnId !== undefined) await notifyHolder(deps, kind, workspaceId, request.taskId, turnId);
    return { changed: events.length > 0, writes, ...(turnId !== undefined ? { cancelledTurnId: turnId } : {}) };
  };
  return retry(attempt, conflictRetry());
}

/** Release the claims of steps that never committed, close the turn, then stop or pause. */
function taskCommands(
  kind: Kind,
  request: InterruptRequest,
  turnId: string | undefined,
  turn: TurnState | undefined,
): TaskCommand[] {
  const commands: TaskCommand[] = [];
  if (turnId !== undefined) {
    const outcome = endedAs(turn) ?? 'cancelled';
    const fromStep = turn === undefined || turn.status === 'none' ? 1 : turn.steps.length + 1;
    commands.push({ type: 'ReleaseClaims', turnId, step: fromStep, reason: releaseReason[outcome] });
    commands.push({ type: 'CloseTurn', turnId, outcome });
  }
  const reason = request.reason !== undefined ? { reason: request.reason } : {};
  commands.push(
    kind === 'stop'
      ? { type: 'StopTask', by: request.by, ...reason, ...(turnId !== undefined ? { cancelledTurnId: turnId } : {}) }
      : { type: 'PauseTask', by: request.by, ...reason },
  );
  return commands;
}

function endedAs(turn: TurnState | undefined): keyof typeof releaseReason | undefined {
  if (turn === undefined) return undefined;
  return turn.status === 'completed' || turn.status === 'failed' || turn.status === 'cancelled'
    ? turn.status
    : undefined;
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
