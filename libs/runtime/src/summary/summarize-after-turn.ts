import { updateTaskSummary } from '../commands/update-task-summary';
import type { FinishReason } from '../process/runtime-output';
import type { RuntimeDeps } from '../worker/runtime-deps';
import type { TurnSession } from '../worker/turn-session';
import { lastReplyOf, summarizeTurn } from './turn-summary';

/**
 * The routing summary after a turn (DESIGN.md §4 step 2: kept current by the runtime), written
 * only once the task stream shows the turn closed, and as its own append after TurnClosed: a crash
 * between the two loses only this summary (the next turn writes a newer one), never the close.
 * A cancelled turn (stop, pause) is skipped: its last reply is what the person interrupted. A
 * failure here is logged and swallowed; routing falls back to the goal.
 */
export async function summarizeAfterTurn(
  deps: RuntimeDeps,
  session: TurnSession,
  finished: FinishReason,
): Promise<void> {
  if (finished !== 'completed' && finished !== 'failed') return;
  const task = session.task.state;
  const turn = session.turn.state;
  if (task.status === 'none' || turn.status === 'none' || task.lastClosedTurn?.turnId !== session.turnId) return;
  const summary = summarizeTurn(task.goal, lastReplyOf(turn));
  try {
    const result = await updateTaskSummary(deps, {
      workspaceId: session.workspaceId,
      taskId: session.taskId,
      summary,
      turnId: session.turnId,
    });
    deps.logger.debug({ taskId: session.taskId, turnId: session.turnId, changed: result.changed }, 'task summary');
  } catch (error) {
    deps.logger.warn(
      { taskId: session.taskId, turnId: session.turnId, error: error instanceof Error ? error.message : String(error) },
      'task summary not written; the next turn writes one',
    );
  }
}
