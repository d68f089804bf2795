import type { EventDataMap } from '@lomo/contracts';

/**
 * What the main line's rules need: which messages are on it, what was decided for each, and which
 * replies and cards were written. Folded from the whole stream or from a message's revision on
 * (what concerns a message is always written after it), so the cost does not grow with the line.
 */
export interface ClarificationCard {
  messageId: string;
  options: EventDataMap['ClarificationRequested']['options'];
  answer?: EventDataMap['ClarificationAnswered'];
}

export interface MainLineState {
  messages: Readonly<Record<string, { userId: string }>>;
  decisions: Readonly<Record<string, EventDataMap['RoutingDecided']>>;
  clarified: Readonly<Record<string, true>>;
  /** Clarification cards by card id: what they asked about, what they offer, and the answer once given. */
  clarifications: Readonly<Record<string, ClarificationCard>>;
  replies: Readonly<Record<string, true>>;
  cards: Readonly<Record<string, true>>;
}

export const initialMainLineState = (): MainLineState => ({
  messages: {},
  decisions: {},
  clarified: {},
  clarifications: {},
  replies: {},
  cards: {},
});
