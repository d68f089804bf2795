import type { TraceContext } from '@lomo/observability';

export type ClarificationChoice = { optionId: string } | { text: string };

/**
 * The person's answer to a clarification card on their own main line: one of its options, or a
 * text reply. It becomes a message (channel `card`) that names the card; the router resolves the
 * card (ClarificationAnswered) when it routes that message. Result: ReceiveUserMessageResult.
 */
export class AnswerClarification {
  constructor(
    readonly workspaceId: string,
    readonly userId: string,
    readonly cardId: string,
    readonly choice: ClarificationChoice,
    readonly trace?: TraceContext,
  ) {}
}
