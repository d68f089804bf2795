import { OperatorInputError } from '../../errors';

/**
 * A named dead letter was redriven already (a bus letter by an earlier `dlq redrive`, a webhook
 * letter whose redelivery is requested or done). A bus letter is sent back once: if its copy
 * fails again, the copy is a new dead letter with an id of its own, which is the one to redrive.
 */
export class DeadLetterAlreadyRedrivenError extends OperatorInputError {
  readonly code = 'ALREADY_REDRIVEN';
  constructor(
    readonly id: string,
    readonly status: string,
  ) {
    super(`dead letter "${id}" was redriven already (${status})`, { id, status });
  }
}

/** A dead letter that cannot be sent again: a webhook letter skipped or replayed, a bus record no handler can read. */
export class DeadLetterNotRedrivableError extends OperatorInputError {
  readonly code = 'NOT_REDRIVABLE';
  constructor(
    readonly id: string,
    reason: string,
  ) {
    super(`dead letter "${id}" cannot be redriven: ${reason}`, { id, reason });
  }
}
