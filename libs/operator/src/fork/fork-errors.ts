import { OperatorInputError } from '../errors';

/** `--at <revision>` past the head of the task's stream. */
export class ForkBeyondTaskError extends OperatorInputError {
  readonly code = 'POSITION_BEYOND_TASK';
  constructor(taskId: string, revision: number, head: number) {
    super(`task "${taskId}" has revisions 0 to ${head}: there is no revision ${revision} to fork at`, {
      taskId,
      revision,
      head,
    });
  }
}

/** `--at <turnId>:<step>` naming a turn of another task, or none. */
export class TurnNotOfTaskError extends OperatorInputError {
  readonly code = 'NOT_FOUND';
  constructor(taskId: string, turnId: string) {
    super(`turn "${turnId}" is not a turn of task "${taskId}"`, { taskId, turnId });
  }
}

/** `--at <turnId>:<step>` naming a step its turn never committed. */
export class StepNotCommittedError extends OperatorInputError {
  readonly code = 'STEP_BEYOND_TURN';
  constructor(turnId: string, step: number, committed: number) {
    super(`turn "${turnId}" has ${committed} committed step(s): there is no step ${step} to fork at`, {
      turnId,
      step,
      committed,
    });
  }
}

/** `lomo task arm` on a task that is no fork: its tools are not stubbed. */
export class NotAForkError extends OperatorInputError {
  readonly code = 'NOT_A_FORK';
  constructor(taskId: string) {
    super(`task "${taskId}" is not a fork: only a fork's tools are stubbed and armed`, { taskId });
  }
}

/** `--tools` naming a tool the runtime does not have. */
export class UnknownToolsError extends OperatorInputError {
  readonly code = 'UNKNOWN_TOOL';
  constructor(tools: readonly string[], known: readonly string[]) {
    super(`no such tool: ${tools.join(', ')} (known: ${known.join(', ')})`, { tools: [...tools] });
  }
}
