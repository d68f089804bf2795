import type { StreamWrite } from '@lomo/command-handling';
import type { ForgettingTarget } from '@lomo/contracts';
import type { ForgettingState } from '@lomo/domain';

/**
 * The person acting on their own memory: the workspace and user of the `memory-` stream, and the
 * actor. Memory is private to its person (DESIGN.md §4), so nobody acts on another's.
 */
export interface PersonOnMemory {
  readonly workspaceId: string;
  readonly userId: string;
}

/**
 * "That's wrong, it's green now": a new version of the memory, valid from `validFrom` (default
 * now); the standing one is superseded as corrected and stays the answer for its time. `text` is
 * the claim people and prompts read; `value` what its fingerprint is made of (default the text).
 */
export class CorrectPersonMemory {
  constructor(
    readonly person: PersonOnMemory,
    readonly memoryId: string,
    readonly text: string,
    readonly options: {
      readonly value?: string;
      readonly validFrom?: string;
      readonly language?: string;
      /** The client's own id of this correction: a retry with it lands on the same version. */
      readonly clientCorrectionId?: string;
    } = {},
  ) {}
}

/** Asks to forget a memory or given evidence: nothing is forgotten until the person confirms. */
export class RequestMemoryForgetting {
  constructor(
    readonly person: PersonOnMemory,
    readonly forgettingId: string,
    readonly target: ForgettingTarget,
  ) {}
}

/** The person's confirmation: the cascade runner (reacting to ForgettingConfirmed) does the forgetting. */
export class ConfirmMemoryForgetting {
  constructor(
    readonly person: PersonOnMemory,
    readonly forgettingId: string,
  ) {}
}

export class CancelMemoryForgetting {
  constructor(
    readonly person: PersonOnMemory,
    readonly forgettingId: string,
  ) {}
}

export interface MemoryWriteResult {
  changed: boolean;
  /** Where the outcome sits on the memory stream: consistency tokens. */
  writes: StreamWrite[];
}

export interface CorrectionResult extends MemoryWriteResult {
  memoryId: string;
  versionId: string;
  version: number;
  /** The version the correction superseded (it stays answerable until `validFrom`). */
  correctedVersionId: string;
  validFrom: string;
}

/** What a forgetting will reach if confirmed, from the memory stream's state when asked. */
export interface ForgettingImpact {
  evidenceIds: string[];
  /** Versions that depend on the evidence (directly or by derivation): their text is deleted. */
  purgedVersions: Array<{ memoryId: string; versionId: string; version: number }>;
  /** Memories whose standing version goes: re-extracted from the remaining evidence, if any. */
  memoriesLosingCurrent: string[];
  /** CONFIRM-only links removed; those versions stand on their other evidence. */
  detached: Array<{ memoryId: string; versionId: string; evidenceId: string }>;
  /** Whether the profile in force names a purged version (a new profile version is published). */
  profileAffected: boolean;
  /** Profile versions whose body is deleted. */
  profileVersionsPurged: number[];
  /** Episode summaries made from the evidence or a purged version: invalidated and rebuilt. */
  summariesInvalidated: string[];
}

export interface ForgettingResult extends MemoryWriteResult {
  forgetting: ForgettingState;
}

export interface ForgettingRequestResult extends ForgettingResult {
  affects: ForgettingImpact;
}
