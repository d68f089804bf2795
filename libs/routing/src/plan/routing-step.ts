import type { EventDataMap } from '@lomo/contracts';
import type { RoutingDecision } from './routing-view';

type Clarification = Omit<EventDataMap['ClarificationRequested'], 'messageId' | 'cardId'>;

/**
 * The decision and everything that follows from it. Main-line effects (reply, card, answer) are
 * appended with the decision; task effects (create, deliver, upgrade) after it, each idempotent
 * and re-derivable from the decision and the main line, so a crash anywhere is repaired by
 * routing the message again.
 */
export interface PlannedRouting {
  decision: Omit<RoutingDecision, 'messageId' | 'latencyMs'>;
  reply?: { text: string; language: string };
  clarification?: Clarification;
  /** `fromRevision`: where on the main line the card's message is (the decider folds from there). */
  answer?: { cardId: string; optionId?: string; text?: string; fromRevision: number };
  /** For `new`/`lightweight`: the task to create (its id is in the decision). */
  create?: { kind: 'lightweight' | 'persistent'; goal: string; language: string };
  /** The message that goes into the task's inbox (for a card answer: the message the card asked about). */
  deliver?: { messageId: string; text: string; language: string; channel?: 'ui' | 'api' | 'card'; from?: string };
  /** A lightweight task the person keeps revising becomes persistent. */
  upgrade?: { reason: string };
}

/** The one next thing the runner does for a message (cf. libs/runtime/src/process/plan-turn.ts). */
export type RoutingStep =
  | { kind: 'retrieve-candidates'; text: string }
  | { kind: 'ask-model' }
  | { kind: 'read-tasks'; taskIds: string[] }
  | { kind: 'find-duplicates'; goal: string }
  | { kind: 'ask-duplicate-model' }
  | { kind: 'decided'; routing: PlannedRouting };
