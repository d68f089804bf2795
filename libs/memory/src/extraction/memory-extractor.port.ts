import type { EvidenceState } from '@lomo/domain';
import type { CurrentMemory } from './current-memories';

/** What an extractor reads: one piece of evidence and what the person's memory says now. */
export interface ExtractionRequest {
  evidence: EvidenceState;
  /** The evidence's text: the message, or the observed generation call's arguments. */
  text: string;
  /** The person's current memories (currentMemories), so a refinement or correction can name its subject. */
  standing: readonly CurrentMemory[];
  /**
   * Texts of the person's earlier observation evidence, newest first (a bounded window): one
   * generation says nothing about a taste, several alike may (article §7.1).
   */
  recentObservations: readonly string[];
  signal?: AbortSignal;
}

/**
 * Proposes raw candidates for one piece of evidence. The answer is unchecked on purpose: every
 * candidate goes through validateCandidates one by one (planExtraction), whichever extractor
 * made it. A model failure rejects with a ModelError (`retriable` says whether to try again); the
 * caller retries or dead-letters, a turn never waits for it.
 */
export interface MemoryExtractor {
  readonly kind: 'offline_rules' | 'model';
  extract(request: ExtractionRequest): Promise<unknown[]>;
}
