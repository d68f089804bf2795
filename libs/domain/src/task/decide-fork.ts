import { DomainError } from '../decider';
import type { ArmTools, RecordFork } from './task-commands';
import { TaskErrors } from './task-errors';
import type { TaskEvent } from './task-events';
import { existing, invalid } from './task-guards';
import type { TaskState } from './task-state';

/**
 * The copy of a task becomes a fork (issue 20): decided on the copy's folded state, so the copied
 * events must have made a task. The copy's own lineage, if it was a fork's copy, is replaced.
 */
export function recordFork(command: RecordFork, state: TaskState): TaskEvent[] {
  const task = existing(state);
  if (command.sourceTaskId === task.taskId) invalid('A fork is a new task, not its source');
  if (task.fork?.sourceTaskId === command.sourceTaskId && task.fork.sourcePosition === command.sourcePosition)
    throw new DomainError(TaskErrors.ALREADY_FORKED, `Task ${task.taskId} is this fork already`);
  const { sourceTaskId, sourceRevision, sourcePosition, atStep, turns, cancelledTurnId, by } = command;
  return [
    {
      type: 'ForkedFrom',
      data: {
        sourceTaskId,
        sourceRevision,
        sourcePosition,
        ...(atStep !== undefined ? { atStep: { ...atStep } } : {}),
        turns: turns.map((t) => ({ ...t })),
        ...(cancelledTurnId !== undefined ? { cancelledTurnId } : {}),
        by,
      },
    },
  ];
}

/** Arms tools of a fork; those armed already are left out, and arming nothing new is a no-op. */
export function armTools(command: ArmTools, state: TaskState): TaskEvent[] {
  const task = existing(state);
  if (task.fork === null)
    throw new DomainError(TaskErrors.NOT_A_FORK, `Task ${task.taskId} is not a fork: its tools are not stubbed`);
  const armed = task.fork.armed;
  if (armed === 'all') return [];
  if (command.tools === 'all') return [{ type: 'ToolsArmed', data: { tools: 'all', by: command.by } }];
  const fresh = [...new Set(command.tools)].filter((t) => !armed.includes(t));
  if (fresh.length === 0) return [];
  return [{ type: 'ToolsArmed', data: { tools: fresh, by: command.by } }];
}

/** Whether a call to `tool` may run on this task: always on a task that is not a fork. */
export function isToolArmed(state: TaskState, tool: string): boolean {
  if (state.status === 'none' || state.fork === null) return true;
  return state.fork.armed === 'all' || state.fork.armed.includes(tool);
}
