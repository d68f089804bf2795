import type { EventEnvelope } from '@lomo/contracts';
import type { Purged } from './inspection.types';
import { comparePositions } from '../positions';

export const purged = (reason: string): Purged => ({ purged: true, reason });

export const PURGE_REASONS = {
  forgotten: 'forgotten',
  blobDeleted: 'blob deleted',
  builtWhileForgotten: 'built while forgotten content was in the context',
  quotesForgotten: 'quotes forgotten content',
} as const;

/** Shorter texts are too common to tell a quotation from a coincidence. */
const MIN_QUOTED_LENGTH = 8;

/** How a step is named in the sets of forgotten steps. */
export const stepKey = (turnId: string, step: number) => `${turnId}:${step}`;

/**
 * What forgettings took out of a task (ContextExcluded, libs/memory's cascade, by recorded
 * provenance): the messages and the steps that relied on them, when each entered the task and
 * when it was excluded. Stored prompts are never rewritten, so a prompt built in between may
 * hold the text; and the log keeps message texts, so every view of them goes through here.
 */
export class ForgottenContent {
  readonly messageIds = new Set<string>();
  readonly steps = new Set<string>();
  /** Entered (delivered, committed) and excluded positions of each forgotten message or step. */
  private readonly spans: Array<{ entered: string; excluded: string }> = [];
  /** Texts known to be forgotten, to catch a verbatim copy elsewhere. */
  private readonly texts: string[] = [];

  constructor(taskEvents: readonly EventEnvelope[], turnEvents: readonly EventEnvelope[]) {
    const excludedAt = new Map<string, string>();
    for (const e of taskEvents) {
      if (e.type !== 'ContextExcluded') continue;
      const d = e.data as { messageIds: string[]; steps: Array<{ turnId: string; step: number }> };
      for (const id of d.messageIds) {
        this.messageIds.add(id);
        if (!excludedAt.has(`m:${id}`)) excludedAt.set(`m:${id}`, e.metadata.globalPosition);
      }
      for (const s of d.steps) {
        this.steps.add(stepKey(s.turnId, s.step));
        if (!excludedAt.has(`s:${stepKey(s.turnId, s.step)}`))
          excludedAt.set(`s:${stepKey(s.turnId, s.step)}`, e.metadata.globalPosition);
      }
    }
    if (excludedAt.size === 0) return;
    for (const e of taskEvents) {
      const d = e.data as {
        itemId?: string;
        messageId?: string;
        text?: string;
        goal?: string;
        originMessageId?: string;
      };
      if (e.type === 'MessageDeliveredToInbox' && d.messageId !== undefined && this.messageIds.has(d.messageId)) {
        this.texts.push(d.text ?? '');
        this.spans.push({ entered: e.metadata.globalPosition, excluded: excludedAt.get(`m:${d.messageId}`)! });
      }
      if (e.type === 'InboxItemReplaced' && d.itemId !== undefined && this.messageIds.has(d.itemId))
        this.texts.push(d.text ?? '');
      if (e.type === 'TaskCreated' && d.originMessageId !== undefined && this.messageIds.has(d.originMessageId))
        this.texts.push(d.goal ?? '');
    }
    for (const e of turnEvents) {
      if (e.type !== 'ModelStepCommitted') continue;
      const d = e.data as { step: number; reply: string };
      const key = stepKey(e.metadata.streamId.slice('turn-'.length), d.step);
      if (!this.steps.has(key)) continue;
      this.texts.push(d.reply);
      this.spans.push({ entered: e.metadata.globalPosition, excluded: excludedAt.get(`s:${key}`)! });
    }
  }

  isMessageForgotten = (messageId: string): boolean => this.messageIds.has(messageId);

  isStepExcluded = (turnId: string, step: number): boolean => this.steps.has(stepKey(turnId, step));

  /**
   * Whether a step committed at `position` was built while forgotten content was in the task's
   * context: it entered before the step and was excluded only after it.
   */
  wasInContextAt(position: string): boolean {
    return this.spans.some(({ entered, excluded }) => {
      const afterEntry = comparePositions(entered, position);
      const beforeExclusion = comparePositions(position, excluded);
      // Not comparable (should not happen within one store): assume the worst.
      if (afterEntry === undefined || beforeExclusion === undefined) return true;
      return afterEntry < 0 && beforeExclusion < 0;
    });
  }

  /** Whether `serialized` (a JSON text) holds a forgotten text verbatim. */
  quotesForgotten(serialized: string): boolean {
    return this.texts.some(
      (text) =>
        text.length >= MIN_QUOTED_LENGTH &&
        (serialized.includes(text) || serialized.includes(JSON.stringify(text).slice(1, -1))),
    );
  }
}
