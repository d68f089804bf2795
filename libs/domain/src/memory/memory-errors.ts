/** Refusal codes of the memory decider (DomainError.code); callers match on these, never on messages. */
export const MemoryErrors = {
  MEMORY_NOT_FOUND: 'MEMORY_NOT_FOUND',
  VERSION_NOT_FOUND: 'VERSION_NOT_FOUND',
  /** A parent, a superseded or a confirmed version that no longer stands (superseded or purged). */
  VERSION_NOT_CURRENT: 'VERSION_NOT_CURRENT',
  /** A version id or number, a profile version or a summary id taken by other content. */
  VERSION_CONFLICT: 'VERSION_CONFLICT',
  EVIDENCE_UNKNOWN: 'EVIDENCE_UNKNOWN',
  /** Revoked evidence may support no memory again. */
  EVIDENCE_REVOKED: 'EVIDENCE_REVOKED',
  /** An explicit version needs the person's own words: a message linked as ORIGIN or REFINE. */
  INFERRED_NOT_EXPLICIT: 'INFERRED_NOT_EXPLICIT',
  /** A claim a forgetting suppressed, backed only by evidence recorded before that forgetting. */
  SUPPRESSED: 'SUPPRESSED',
  FORGETTING_NOT_FOUND: 'FORGETTING_NOT_FOUND',
  /** Confirming a cancelled forgetting. */
  FORGETTING_NOT_CONFIRMABLE: 'FORGETTING_NOT_CONFIRMABLE',
  /** Only the person who asked to forget confirms or cancels it (DESIGN.md §5). */
  NOT_REQUESTER: 'NOT_REQUESTER',
  /** Cancelling a forgetting that was confirmed already. */
  FORGETTING_NOT_CANCELLABLE: 'FORGETTING_NOT_CANCELLABLE',
  /** Applying a forgetting the person has not confirmed (or cancelled). */
  FORGETTING_NOT_CONFIRMED: 'FORGETTING_NOT_CONFIRMED',
  /** Completing a forgetting whose cascade was not applied. */
  FORGETTING_NOT_APPLIED: 'FORGETTING_NOT_APPLIED',
  /** A forgetting id reused for another target. */
  FORGETTING_CONFLICT: 'FORGETTING_CONFLICT',
  /** The target has no evidence left to revoke. */
  NOTHING_TO_FORGET: 'NOTHING_TO_FORGET',
  /** An applied cascade that leaves something depending on the revoked evidence, or purges too much. */
  CASCADE_INCOMPLETE: 'CASCADE_INCOMPLETE',
  SUMMARY_NOT_FOUND: 'SUMMARY_NOT_FOUND',
  VALIDATION_FAILED: 'VALIDATION_FAILED',
} as const;

export type MemoryErrorCode = (typeof MemoryErrors)[keyof typeof MemoryErrors];
