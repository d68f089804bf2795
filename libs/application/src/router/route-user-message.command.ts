import type { EventDataMap, EventEnvelope } from '@lomo/contracts';

type RoutingDecision = EventDataMap['RoutingDecided'];

/** Route one stored UserMessageReceived (as the relay delivered it). */
export class RouteUserMessage {
  constructor(readonly message: EventEnvelope) {}
}

export interface RouteUserMessageResult {
  decision: RoutingDecision;
  /** Whether this run wrote the decision (false: it was recorded by an earlier run). */
  decisionWritten: boolean;
  /** The task the message now sits in, or null (clarify, or a refused delivery). */
  deliveredTo: string | null;
  /** Whether a wake-up was published. */
  woke: boolean;
}
