import type { EventDataMap } from '@lomo/contracts';

type Data<T extends keyof EventDataMap> = EventDataMap[T];

/** A person's message arrives in Main; its id derives from the client's id when one was given. */
export type ReceiveMessage = {
  type: 'ReceiveMessage';
  messageId: string;
  userId: string;
  text: string;
  language: string;
  channel: Data<'UserMessageReceived'>['channel'];
  target?: { taskId?: string; artifactRef?: string };
  clientMessageId?: string;
  /** The clarification card this message answers; the router resolves the card when it routes it. */
  answersCardId?: string;
};

/** The router's decision for one message; the first one recorded stands. */
export type RecordRoutingDecision = {
  type: 'RecordRoutingDecision';
  messageId: string;
  outcome: Data<'RoutingDecided'>['outcome'];
  taskId: string | null;
  method: Data<'RoutingDecided'>['method'];
  candidates: Data<'RoutingDecided'>['candidates'];
  reason?: string;
  duplicateCheck?: Data<'RoutingDecided'>['duplicateCheck'];
  promptRef?: Data<'RoutingDecided'>['promptRef'];
  modelStep?: Data<'RoutingDecided'>['modelStep'];
  latencyMs?: number;
  answersCardId?: string;
  /**
   * What the decision says in Main, written in the same append (so a crash can never leave a
   * decision without its reply or card): Main's answer, a clarification card, the card this
   * message answered.
   */
  effects?: {
    reply?: Omit<ReplyInMain, 'type' | 'messageId'>;
    clarification?: Omit<RequestClarification, 'type' | 'messageId'>;
    answer?: Omit<AnswerClarification, 'type' | 'answerMessageId'>;
  };
};

/** Ask the person which work a message belongs to; one card per message. */
export type RequestClarification = {
  type: 'RequestClarification';
  messageId: string;
  cardId: string;
  question: string;
  options: Data<'ClarificationRequested'>['options'];
  reason: Data<'ClarificationRequested'>['reason'];
  language: string;
};

/** Resolve an open card with the person's answer (a message already on the line); a card is answered once. */
export type AnswerClarification = {
  type: 'AnswerClarification';
  cardId: string;
  answerMessageId: string;
  optionId?: string;
  text?: string;
  by: string;
};

export type ReplyInMain = { type: 'ReplyInMain'; messageId: string; replyId: string; text: string; language: string };

export type ShowTaskCard = {
  type: 'ShowTaskCard';
  cardId: string;
  taskId: string;
  messageId?: string;
  title: string;
  status: Data<'TaskCardShown'>['status'];
  summary?: string;
};

export type MainLineCommand =
  ReceiveMessage | RecordRoutingDecision | RequestClarification | AnswerClarification | ReplyInMain | ShowTaskCard;
