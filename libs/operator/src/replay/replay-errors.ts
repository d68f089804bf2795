import { OperatorInputError } from '../errors';

/** `--step N` past the turn's committed steps (or below 1). */
export class StepBeyondTurnError extends OperatorInputError {
  readonly code = 'STEP_BEYOND_TURN';
  constructor(turnId: string, step: number, committed: number) {
    super(`turn "${turnId}" has ${committed} committed step(s): there is no step ${step} to replay`, {
      turnId,
      step,
      committed,
    });
  }
}

/** A prompt patch that is not JSON or does not match the patch schema. */
export class PromptPatchRefusedError extends OperatorInputError {
  readonly code = 'BAD_PROMPT_PATCH';
  constructor(reason: string) {
    super(`prompt patch refused: ${reason}`, { reason });
  }
}

/** A `--script` file for `--model scripted` that is not JSON or does not match its schema. */
export class ReplayScriptRefusedError extends OperatorInputError {
  readonly code = 'BAD_REPLAY_SCRIPT';
  constructor(reason: string) {
    super(`replay script refused: ${reason}`, { reason });
  }
}

/** A replay model that cannot be used as asked (an unknown name, scripted without a script, openai unconfigured). */
export class ReplayModelRefusedError extends OperatorInputError {
  readonly code = 'BAD_REPLAY_MODEL';
  constructor(reason: string) {
    super(`replay model refused: ${reason}`, { reason });
  }
}
