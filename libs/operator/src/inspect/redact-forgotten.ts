import type { EventEnvelope } from '@lomo/contracts';
import { stepKey } from './forgotten-content';
import type { InspectionSources } from './inspection-sources';

/** What a forgotten text reads as in the raw event views (`stream show`, `events tail`). */
export const PURGED_TEXT = '[purged: forgotten]';

/**
 * Every message and step a forgetting excluded, in any task (the `ContextExcluded` events of
 * libs/memory's cascade, by recorded provenance). The log keeps message texts inline, so the raw
 * views pass every event through `redactForgotten` with it, as the inspections do (ForgottenContent).
 */
export interface ForgottenIds {
  messageIds: ReadonlySet<string>;
  steps: ReadonlySet<string>;
}

/**
 * The forgotten ids as the log grows: the first call reads every `ContextExcluded`, each later one
 * only those appended since (a follow or a long tail asks once per page).
 */
export class ForgottenIdsReader {
  private readonly messageIds = new Set<string>();
  private readonly steps = new Set<string>();
  private after: string | 'start' = 'start';

  constructor(private readonly sources: InspectionSources) {}

  async current(): Promise<ForgottenIds> {
    const excluded = await this.sources.events.readAll({
      fromPosition: this.after,
      filter: { eventTypes: ['ContextExcluded'] },
    });
    for (const e of excluded) {
      const d = e.data as { messageIds: string[]; steps: Array<{ turnId: string; step: number }> };
      for (const id of d.messageIds) this.messageIds.add(id);
      for (const s of d.steps) this.steps.add(stepKey(s.turnId, s.step));
    }
    if (excluded.length > 0) this.after = excluded[excluded.length - 1].metadata.globalPosition;
    return { messageIds: this.messageIds, steps: this.steps };
  }
}

export const readForgottenIds = (sources: InspectionSources): Promise<ForgottenIds> =>
  new ForgottenIdsReader(sources).current();

type Data = Record<string, unknown>;

/**
 * The event with the texts of forgotten content replaced by PURGED_TEXT: a person's message
 * (received on the main line, delivered to an inbox, replacing an item), a task goal taken from
 * a forgotten first message, the reply and tool-call arguments of an excluded step. Anything else
 * is returned as it is.
 */
export function redactForgotten(event: EventEnvelope, forgotten: ForgottenIds): EventEnvelope {
  if (forgotten.messageIds.size === 0 && forgotten.steps.size === 0) return event;
  const data = event.data as Data;
  const isForgotten = (id: unknown) => typeof id === 'string' && forgotten.messageIds.has(id);
  switch (event.type) {
    case 'UserMessageReceived':
    case 'MessageDeliveredToInbox':
      return isForgotten(data.messageId) ? withData(event, { ...data, text: PURGED_TEXT }) : event;
    case 'InboxItemReplaced':
      return isForgotten(data.itemId) || isForgotten(data.messageId)
        ? withData(event, { ...data, text: PURGED_TEXT })
        : event;
    case 'TaskCreated':
      return isForgotten(data.originMessageId) ? withData(event, { ...data, goal: PURGED_TEXT }) : event;
    case 'ModelStepCommitted': {
      const turnId = event.metadata.streamId.slice('turn-'.length);
      if (!forgotten.steps.has(stepKey(turnId, Number(data.step)))) return event;
      const intents = Array.isArray(data.toolCallIntents) ? (data.toolCallIntents as Data[]) : [];
      return withData(event, {
        ...data,
        reply: PURGED_TEXT,
        toolCallIntents: intents.map((intent) => ({ ...intent, arguments: { purged: true } })),
      });
    }
    default:
      return event;
  }
}

const withData = (event: EventEnvelope, data: Data): EventEnvelope => ({ ...event, data });
