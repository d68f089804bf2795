import { CommanderError } from 'commander';
import { ConfigError, isLomoError, ValidationError } from '@lomo/contracts';
import { isOperatorInputError } from '@lomo/operator';

/**
 * The documented exit codes (apps/cli/README.md): 0 done, 1 failed (the work could not be done:
 * a store down, a refusal of the data such as an unknown token id to revoke, a bug), 2 bad input
 * (malformed flags, an unknown stream, a bad position, a workspace the token may not read, a
 * write without its confirmation flag, a corrupt import): nothing was changed.
 */
export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_BAD_INPUT = 2;

const COMMANDER_OK = new Set(['commander.helpDisplayed', 'commander.version', 'commander.help']);

export interface ExitDecision {
  code: number;
  /** One line for stderr (or JSON in `--json`), empty when commander already printed it. */
  message: string;
  errorCode: string;
}

export function exitFor(error: unknown): ExitDecision {
  if (error instanceof CommanderError) {
    if (COMMANDER_OK.has(error.code)) return { code: EXIT_OK, message: '', errorCode: 'OK' };
    // commander printed its own message (unknown option, missing argument) with the usage hint.
    return { code: EXIT_BAD_INPUT, message: '', errorCode: 'USAGE' };
  }
  if (isOperatorInputError(error) || error instanceof ConfigError || error instanceof ValidationError) {
    return { code: EXIT_BAD_INPUT, message: error.message, errorCode: error.code };
  }
  if (isLomoError(error)) return { code: EXIT_FAILED, message: error.message, errorCode: error.code };
  return {
    code: EXIT_FAILED,
    message: error instanceof Error ? error.message : String(error),
    errorCode: 'INTERNAL',
  };
}
