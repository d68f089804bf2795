export const MainLineErrors = {
  /** The message is not on this main line (or not in the part of it that was read). */
  MESSAGE_NOT_FOUND: 'MESSAGE_NOT_FOUND',
  INVALID_COMMAND: 'INVALID_COMMAND',
  /** No such clarification card on this person's main line. */
  CARD_NOT_FOUND: 'CARD_NOT_FOUND',
  /** The card was answered already; an answer resolves a card once. */
  CARD_ALREADY_ANSWERED: 'CARD_ALREADY_ANSWERED',
  /** The answer names an option the card does not offer. */
  UNKNOWN_OPTION: 'UNKNOWN_OPTION',
} as const;
