import { LomoError } from '@lomo/contracts';

/** Error codes the registry itself produces; tools add their own (e.g. NOTE_NOT_FOUND). */
export const ToolErrorCodes = {
  notFound: 'TOOL_NOT_FOUND',
  invalidArguments: 'TOOL_INVALID_ARGUMENTS',
  aborted: 'TOOL_ABORTED',
  /** A tool threw something that is not a LomoError. */
  failed: 'TOOL_FAILED',
  /** A tool broke its own declaration (a sync tool returned pending, an output that is not JSON). */
  contractViolation: 'TOOL_CONTRACT_VIOLATION',
} as const;

const errorCodePattern = /^[A-Z][A-Z0-9_]{1,63}$/;

/**
 * What a tool throws when it fails in a way the model should hear about. The registry turns it
 * into an error result with the same code and retriability.
 */
export class ToolFailure extends LomoError {
  constructor(
    readonly code: string,
    message: string,
    readonly retriable: boolean,
    details: Record<string, unknown> = {},
  ) {
    super(message, details);
    if (!errorCodePattern.test(code)) throw new TypeError(`Tool error code "${code}" must match ${errorCodePattern}`);
  }
}

/** A definition that cannot be registered: a programming error, found at start-up. */
export class ToolRegistrationError extends LomoError {
  readonly code = 'TOOL_REGISTRATION_INVALID';
  readonly retriable = false;
  constructor(
    readonly toolName: string,
    reason: string,
  ) {
    super(`Tool "${toolName}" cannot be registered: ${reason}`, { toolName });
  }
}

export const isValidErrorCode = (code: string): boolean => errorCodePattern.test(code);
