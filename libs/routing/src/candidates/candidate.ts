import type { RoutingDocument } from '../index/routing-document';

export type RetrievalSource = 'recent' | 'retrieval' | 'recent_decision';

export interface RoutingCandidate {
  taskId: string;
  document: RoutingDocument;
  /** `lexicalScore` of the message with the goal + summary, 0..1. */
  score: number;
  source: RetrievalSource;
}

export interface ScoredDuplicate {
  taskId: string;
  document: RoutingDocument;
  /** `duplicateScore`: lexical and vector similarity of the two goals combined, 0..1. */
  score: number;
  lexical: number;
  vector: number | null;
}
