import { LomoError } from '@lomo/contracts';

/** Refusal codes of the generation job decider; callers match on these, never on messages. */
export const GenerationJobErrors = {
  /** The command needs a job and the stream has none. */
  JOB_NOT_FOUND: 'GENERATION_JOB_NOT_FOUND',
  /** The stream holds the job of another (workspace, key): the derived id collided or was misused. */
  JOB_CONFLICT: 'GENERATION_JOB_CONFLICT',
  /** The command needs the upstream id and none was recorded. */
  JOB_NOT_SUBMITTED: 'GENERATION_JOB_NOT_SUBMITTED',
  /** A second, different upstream id for the same job: two orders for one key. */
  UPSTREAM_ID_CONFLICT: 'GENERATION_UPSTREAM_ID_CONFLICT',
  /** A charge or refund record that is not the ledger entry of this job's quote. */
  LEDGER_MISMATCH: 'GENERATION_LEDGER_MISMATCH',
  INVALID_COMMAND: 'GENERATION_INVALID_COMMAND',
} as const;

export type GenerationJobErrorCode = (typeof GenerationJobErrors)[keyof typeof GenerationJobErrors];

/** A refused job command: nothing was appended. */
export class GenerationJobRefusedError extends LomoError {
  readonly retriable = false;
  constructor(
    readonly code: GenerationJobErrorCode,
    message: string,
    details: Record<string, unknown> = {},
  ) {
    super(message, details);
  }
}
