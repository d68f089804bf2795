import type { TaskState, TurnState } from '@lomo/domain';
import { allCallsSettled } from '@lomo/domain';

/**
 * After a job ended and its tool call has its result: does the task's work need the result?
 * (DESIGN.md §4 step 5, "the wake decision".)
 *
 * - `none`: the task is stopped, paused, ended, or the turn no longer waits (it was cancelled,
 *   or a newer turn took over): the job settled its money and artefact, nothing restarts;
 * - `completeOneShot`: a lightweight task's waiting turn with every call answered: the result is
 *   the answer, so the turn and the task complete without another model step;
 * - `wake`: the waiting turn resumes and the model sees the result.
 */
export type WakePlan =
  | { kind: 'none'; why: 'task_not_running' | 'turn_not_waiting' | 'no_task' }
  | { kind: 'completeOneShot' }
  | { kind: 'wake' };

export function planWake(task: TaskState, turn: TurnState, turnId: string): WakePlan {
  if (task.status === 'none') return { kind: 'none', why: 'no_task' };
  if (task.status !== 'active' && task.status !== 'waiting') return { kind: 'none', why: 'task_not_running' };
  if (turn.status !== 'waiting' || task.activeTurnId !== turnId) return { kind: 'none', why: 'turn_not_waiting' };
  if (task.kind === 'lightweight' && allCallsSettled(turn)) return { kind: 'completeOneShot' };
  return { kind: 'wake' };
}
