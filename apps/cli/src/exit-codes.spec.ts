import { CommanderError } from 'commander';
import { ConfigError, ValidationError } from '@lomo/contracts';
import {
  BadPositionError,
  ConfirmationRequiredError,
  UnknownStreamError,
  WorkspaceForbiddenError,
} from '@lomo/operator';
import { exitFor } from './exit-codes';

describe('exit codes: 0 done, 1 failed, 2 bad input', () => {
  it('is 2 for every refusal of input, with its code', () => {
    for (const error of [
      new UnknownStreamError('task-x'),
      new BadPositionError('yesterday', 'not a revision, position or time'),
      new WorkspaceForbiddenError('acme'),
      new ConfirmationRequiredError('import'),
      new ValidationError('bad', []),
      new ConfigError('LOMO_MODE: invalid', [{ variable: 'LOMO_MODE', message: 'invalid' }]),
      new CommanderError(1, 'commander.unknownOption', "error: unknown option '--x'"),
    ]) {
      expect(exitFor(error).code).toBe(2);
    }
    expect(exitFor(new WorkspaceForbiddenError('acme'))).toMatchObject({ errorCode: 'FORBIDDEN' });
  });

  it('is 0 for --help and 1 for anything else', () => {
    expect(exitFor(new CommanderError(0, 'commander.helpDisplayed', '(outputHelp)')).code).toBe(0);
    expect(exitFor(new Error('disk full'))).toEqual({ code: 1, message: 'disk full', errorCode: 'INTERNAL' });
  });
});
