import { LomoError } from '@lomo/contracts';

/**
 * Refusals of operator input: a name that does not exist, a malformed position, a workspace the
 * caller may not read, a write without its confirmation flag, an import file that is corrupt or
 * conflicts. Nothing was changed when one is thrown; the CLI exits with 2 for each of them
 * (apps/cli/README.md, "Exit codes").
 */
export abstract class OperatorInputError extends LomoError {
  readonly retriable = false;
  readonly badInput = true;
  constructor(message: string, details: Record<string, unknown> = {}) {
    super(message, details);
  }
}

export const isOperatorInputError = (error: unknown): error is OperatorInputError =>
  error instanceof OperatorInputError;

export class UnknownStreamError extends OperatorInputError {
  readonly code = 'UNKNOWN_STREAM';
  constructor(readonly streamId: string) {
    super(`stream "${streamId}" does not exist`, { streamId });
  }
}

export class UnknownTargetError extends OperatorInputError {
  readonly code = 'NOT_FOUND';
  constructor(
    readonly kind: string,
    readonly id: string,
  ) {
    super(`${kind} "${id}" does not exist`, { kind, id });
  }
}

export class BadPositionError extends OperatorInputError {
  readonly code = 'BAD_POSITION';
  constructor(value: string, reason: string) {
    super(`--at "${value}": ${reason}`, { value, reason });
  }
}

export class WorkspaceForbiddenError extends OperatorInputError {
  readonly code = 'FORBIDDEN';
  constructor(readonly workspaceId: string) {
    super(`reading workspace "${workspaceId}" needs an operator token`, { workspaceId });
  }
}

export class OperatorRoleRequiredError extends OperatorInputError {
  readonly code = 'OPERATOR_REQUIRED';
  constructor(what: string) {
    super(`${what} needs an operator token`, { what });
  }
}

export class ConfirmationRequiredError extends OperatorInputError {
  readonly code = 'CONFIRMATION_REQUIRED';
  constructor(what: string, flag = '--confirm') {
    super(`${what} changes data: run it again with ${flag}`, { what, flag });
  }
}

export class ImportRefusedError extends OperatorInputError {
  readonly code = 'IMPORT_REFUSED';
  constructor(reason: string, details: Record<string, unknown> = {}) {
    super(`import refused, nothing was written: ${reason}`, { reason, ...details });
  }
}

export class BadOperatorInputError extends OperatorInputError {
  readonly code = 'BAD_INPUT';
}
