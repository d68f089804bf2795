import type { DeadLetter, OutgoingMessage, ReceivedMessage } from './event-bus.port';

/**
 * A dead letter sent back to its topic (`lomo dlq redrive`) is meant for the one group that
 * failed it: every other group already handled the original. The copy names that group in this
 * header, and both adapters let every other group pass over it (committed, never handed to the
 * handler) before anything else happens, so a redrive never repeats another group's work.
 */
export const REDRIVE_GROUP_HEADER = 'lomo-redrive-group';
/** The operator id of the dead letter the copy stands for (`bus:<group>:<topic>:<partition>:<offset>`). */
export const REDRIVE_OF_HEADER = 'lomo-redrive-of';

/** True when the message is a redriven copy meant for another group than `groupId`. */
export function isRedriveForAnotherGroup(message: Pick<ReceivedMessage, 'headers'>, groupId: string): boolean {
  const target = message.headers[REDRIVE_GROUP_HEADER];
  return target !== undefined && target !== groupId;
}

/**
 * The copy of a dead-lettered message that goes back to its topic: same key (so the same
 * partition, after the stream's later events), value and headers, plus the redrive headers.
 */
export function redriveMessage(letter: DeadLetter, deadLetterId: string): OutgoingMessage {
  return {
    key: letter.message.key,
    value: letter.message.value,
    headers: {
      ...letter.message.headers,
      [REDRIVE_GROUP_HEADER]: letter.groupId,
      [REDRIVE_OF_HEADER]: deadLetterId,
    },
  };
}
