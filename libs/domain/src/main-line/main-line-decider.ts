import { assertNever, DomainError, type Decider } from '../decider';
import type {
  AnswerClarification,
  MainLineCommand,
  ReceiveMessage,
  RecordRoutingDecision,
  ReplyInMain,
  RequestClarification,
  ShowTaskCard,
} from './main-line-commands';
import { MainLineErrors } from './main-line-errors';
import type { MainLineEvent } from './main-line-events';
import { initialMainLineState, type MainLineState } from './main-line-state';

const outcomesWithTask: readonly string[] = ['lightweight', 'existing', 'new'];

function onTheLine(state: MainLineState, messageId: string): void {
  if (state.messages[messageId] === undefined)
    throw new DomainError(MainLineErrors.MESSAGE_NOT_FOUND, `Message ${messageId} is not on this main line`);
}

/** A repeat of the same message id is a no-op: the first arrival stands. */
function receiveMessage(command: ReceiveMessage, state: MainLineState): MainLineEvent[] {
  if (state.messages[command.messageId] !== undefined) return [];
  const { type: _type, ...data } = command;
  return [{ type: 'UserMessageReceived', data }];
}

/** The first decision recorded for a message stands; a later one (a redelivery) is a no-op. */
function recordRoutingDecision(command: RecordRoutingDecision, state: MainLineState): MainLineEvent[] {
  onTheLine(state, command.messageId);
  if (state.decisions[command.messageId] !== undefined) return [];
  if (outcomesWithTask.includes(command.outcome) !== (command.taskId !== null))
    throw new DomainError(
      MainLineErrors.INVALID_COMMAND,
      'A routing decision names a task exactly when its outcome is lightweight, existing or new',
    );
  const { type: _type, effects, ...data } = command;
  const events: MainLineEvent[] = [{ type: 'RoutingDecided', data }];
  if (effects === undefined) return events;
  const { messageId } = command;
  let next = state;
  const add = (more: MainLineEvent[]) => {
    for (const event of more) {
      events.push(event);
      next = evolveMainLine(next, event);
    }
  };
  if (effects.answer !== undefined)
    add(answerClarification({ type: 'AnswerClarification', ...effects.answer, answerMessageId: messageId }, next));
  if (effects.reply !== undefined) add(replyInMain({ type: 'ReplyInMain', messageId, ...effects.reply }, next));
  if (effects.clarification !== undefined)
    add(requestClarification({ type: 'RequestClarification', messageId, ...effects.clarification }, next));
  return events;
}

function requestClarification(command: RequestClarification, state: MainLineState): MainLineEvent[] {
  onTheLine(state, command.messageId);
  if (state.clarified[command.messageId]) return [];
  const { type: _type, ...data } = command;
  return [{ type: 'ClarificationRequested', data }];
}

/**
 * The card must be open and on this line, the answer a message on it, and a named option one the
 * card offers. Answering twice is refused (not a no-op): the second answer would route a message
 * somewhere the person did not get to see decided. The same answer message again is a no-op.
 */
function answerClarification(command: AnswerClarification, state: MainLineState): MainLineEvent[] {
  const card = state.clarifications[command.cardId];
  if (card === undefined)
    throw new DomainError(
      MainLineErrors.CARD_NOT_FOUND,
      `Clarification card ${command.cardId} is not on this main line`,
    );
  if (card.answer !== undefined) {
    if (card.answer.answerMessageId === command.answerMessageId) return [];
    throw new DomainError(
      MainLineErrors.CARD_ALREADY_ANSWERED,
      `Clarification card ${command.cardId} was answered already`,
    );
  }
  onTheLine(state, command.answerMessageId);
  if (command.optionId === undefined && command.text === undefined)
    throw new DomainError(MainLineErrors.INVALID_COMMAND, 'An answer names an option or carries text');
  if (command.optionId !== undefined && !card.options.some((o) => o.optionId === command.optionId))
    throw new DomainError(MainLineErrors.UNKNOWN_OPTION, `Card ${command.cardId} offers no option ${command.optionId}`);
  const { type: _type, ...rest } = command;
  return [{ type: 'ClarificationAnswered', data: { ...rest, messageId: card.messageId } }];
}

function replyInMain(command: ReplyInMain, state: MainLineState): MainLineEvent[] {
  onTheLine(state, command.messageId);
  if (state.replies[command.replyId]) return [];
  const { type: _type, ...data } = command;
  return [{ type: 'MainReplied', data }];
}

function showTaskCard(command: ShowTaskCard, state: MainLineState): MainLineEvent[] {
  if (state.cards[command.cardId]) return [];
  const { type: _type, ...data } = command;
  return [{ type: 'TaskCardShown', data }];
}

export function decideMainLine(command: MainLineCommand, state: MainLineState): MainLineEvent[] {
  switch (command.type) {
    case 'ReceiveMessage':
      return receiveMessage(command, state);
    case 'RecordRoutingDecision':
      return recordRoutingDecision(command, state);
    case 'RequestClarification':
      return requestClarification(command, state);
    case 'AnswerClarification':
      return answerClarification(command, state);
    case 'ReplyInMain':
      return replyInMain(command, state);
    case 'ShowTaskCard':
      return showTaskCard(command, state);
    default:
      return assertNever(command, 'main-line command');
  }
}

export function evolveMainLine(state: MainLineState, event: MainLineEvent): MainLineState {
  switch (event.type) {
    case 'UserMessageReceived':
      return { ...state, messages: { ...state.messages, [event.data.messageId]: { userId: event.data.userId } } };
    case 'RoutingDecided':
      if (state.decisions[event.data.messageId] !== undefined) return state;
      return { ...state, decisions: { ...state.decisions, [event.data.messageId]: event.data } };
    case 'ClarificationRequested': {
      const { cardId, messageId, options } = event.data;
      return {
        ...state,
        clarified: { ...state.clarified, [messageId]: true },
        clarifications: { ...state.clarifications, [cardId]: { messageId, options } },
      };
    }
    case 'ClarificationAnswered': {
      const card = state.clarifications[event.data.cardId];
      if (card === undefined || card.answer !== undefined) return state;
      return {
        ...state,
        clarifications: { ...state.clarifications, [event.data.cardId]: { ...card, answer: event.data } },
      };
    }
    case 'MainReplied':
      return { ...state, replies: { ...state.replies, [event.data.replyId]: true } };
    case 'TaskCardShown':
      return { ...state, cards: { ...state.cards, [event.data.cardId]: true } };
    default:
      return assertNever(event, 'main-line event');
  }
}

/** A person's main line: messages in, routing decisions, Main's replies and task cards. */
export const mainLineDecider: Decider<MainLineCommand, MainLineEvent, MainLineState> = {
  initialState: initialMainLineState,
  decide: decideMainLine,
  evolve: evolveMainLine,
};
