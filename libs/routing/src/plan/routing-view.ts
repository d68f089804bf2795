import type { DuplicateAnswer, EventDataMap, RoutingAnswer } from '@lomo/contracts';
import type { ClarificationCard, TaskState } from '@lomo/domain';
import type { ArtifactBinding } from '../bindings/artifact-bindings.port';

export type UserMessage = EventDataMap['UserMessageReceived'];
export type RoutingDecision = EventDataMap['RoutingDecided'];
export type CandidateSource = RoutingDecision['candidates'][number]['source'];

/** A task the router may send a message to, as the routing index (or the main line) knows it. */
export interface RouteCandidate {
  taskId: string;
  goal: string;
  summary: string | null;
  kind: 'lightweight' | 'persistent';
  status: 'active' | 'waiting' | 'paused' | 'stopped' | 'completed' | 'archived';
  lastActiveAt: string;
  source: Exclude<CandidateSource, 'explicit' | 'artifact' | 'duplicate'>;
  /** The router's own evidence that the message belongs here, 0..1 (lexical/vector similarity plus recency of a decision). */
  evidence: number;
}

export interface DuplicateCandidate {
  taskId: string;
  goal: string;
  summary: string | null;
  score: number;
}

/** A clarification card on the person's main line, with the message it asked about. */
export interface CardOnLine {
  cardId: string;
  card: ClarificationCard;
  question: string;
  asked: { messageId: string; text: string; language: string; channel?: UserMessage['channel'] };
  /** The asked message's revision on the main line. */
  askedRevision: number;
}

export type ModelOutcome<T> =
  | {
      ok: true;
      value: T;
      model: string;
      attempts: number;
      usage: { inputTokens: number; outputTokens: number };
      refs: ReadonlyMap<string, string>;
    }
  | {
      ok: false;
      failure: 'unavailable' | 'invalid';
      code: string;
      model: string;
      attempts: number;
      usage: { inputTokens: number; outputTokens: number };
    };

/**
 * What the router knows about one message so far. The runner fills it step by step, as the
 * planner asks (plan-routing.ts); everything the planner decides from is here, so the planner is
 * pure and every branch is tested without a store or a model.
 */
export interface RoutingView {
  message: UserMessage;
  userId: string;
  /** The explicit target task's state, when the message names one (`none` when absent or another workspace's). */
  explicitTask?: TaskState;
  /** The bound artefact and its task's state, when the message names an artefact. */
  artifact?: { binding: ArtifactBinding; task?: TaskState };
  /** The card this message answers (a card action or a typed answer), and whether it is still open. */
  answering?: CardOnLine;
  /** The newest open card on the line, for a text reply that may answer it. */
  openCard?: CardOnLine;
  /** Tasks the router sent this person's recent messages to (read-your-writes: the index may lag). */
  recentDecisions: readonly string[];
  candidates?: readonly RouteCandidate[];
  routingAnswer?: ModelOutcome<RoutingAnswer>;
  /** States of tasks the planner asked to check (a chosen task, a card's task). */
  taskStates: Readonly<Record<string, TaskState>>;
  duplicates?: readonly DuplicateCandidate[];
  duplicateAnswer?: ModelOutcome<DuplicateAnswer>;
  /** Where the routing prompt was archived (BlobStore), once the model was asked. */
  promptRef?: RoutingDecision['promptRef'];
  /** Margin and thresholds (DEFAULT_ROUTING_SETTINGS below). */
  settings: RoutingSettings;
}

export interface RoutingSettings {
  /** Two best candidates closer than this (by the router's evidence, or by the model's scores) → ask. */
  ambiguityMargin: number;
  /** Evidence a candidate needs to count in the margin guard: below it, the model's reading of a paraphrase stands. */
  evidenceFloor: number;
  /** Duplicate-check score from which the closest tasks go to the model. */
  duplicateThreshold: number;
  /** Duplicate-check score from which a "new" verdict is not trusted and the person is asked. */
  duplicateCertain: number;
  /** Follow-ups to a lightweight task after which it becomes persistent. */
  upgradeAfterRevisions: number;
}

export const DEFAULT_ROUTING_SETTINGS: RoutingSettings = {
  ambiguityMargin: 0.15,
  evidenceFloor: 0.2,
  duplicateThreshold: 0.35,
  duplicateCertain: 0.8,
  upgradeAfterRevisions: 2,
};
