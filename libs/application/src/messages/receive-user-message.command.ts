import type { TraceContext } from '@lomo/observability';

/** A person's message to Main, as the API receives it (validated before it gets here). */
export class ReceiveUserMessage {
  constructor(
    readonly workspaceId: string,
    readonly userId: string,
    readonly text: string,
    readonly language: string,
    readonly channel: 'ui' | 'api' | 'card',
    readonly trace: TraceContext,
    readonly clientMessageId?: string,
    /** What the person named explicitly; the router validates the target's state. */
    readonly target?: MessageTarget,
    /** The clarification card this message answers (AnswerClarificationHandler sets it). */
    readonly answersCardId?: string,
  ) {}
}

export interface MessageTarget {
  taskId?: string;
  artifactRef?: string;
}

export interface ReceiveUserMessageResult {
  messageId: string;
  streamId: string;
  revision: number;
  /** False when the same clientMessageId was already received (a retried request). */
  created: boolean;
}
