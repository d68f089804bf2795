export const MainLineErrors = {
  /** The message is not on this main line (or not in the part of it that was read). */
  MESSAGE_NOT_FOUND: 'MESSAGE_NOT_FOUND',
  INVALID_COMMAND: 'INVALID_COMMAND',
} as const;
