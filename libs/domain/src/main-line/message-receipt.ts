import type { Actor, EventDataMap } from '@lomo/contracts';
import { assertNever, type Decider } from '../decider';

/** Takes a client's message id (receipt-{workspaceId}.{userId}.{messageId}); the first reservation stands. */
export type ReserveMessageReceipt = {
  type: 'ReserveMessageReceipt';
  messageId: string;
  mainStreamId: string;
  mainRevisionBefore: number;
};

export type MessageReceiptEvent = {
  type: 'MessageReceiptReserved';
  data: EventDataMap['MessageReceiptReserved'];
  recordedBy?: Actor;
};

export const messageReceiptEventTypes = ['MessageReceiptReserved'] as const;

export type MessageReceiptState =
  { status: 'free' } | { status: 'reserved'; reservation: EventDataMap['MessageReceiptReserved'] };

/**
 * The uniqueness check of a client's message id (DESIGN.md §4 step 1): its stream is created with
 * "no stream" expected, and a repeat is a no-op that hands back the first reservation, whose main
 * line revision bounds where the message is.
 */
export const messageReceiptDecider: Decider<ReserveMessageReceipt, MessageReceiptEvent, MessageReceiptState> = {
  initialState: () => ({ status: 'free' }),
  decide: (command, state) => {
    if (state.status === 'reserved') return [];
    const { type: _type, ...data } = command;
    return [{ type: 'MessageReceiptReserved', data }];
  },
  evolve: (state, event) => {
    switch (event.type) {
      case 'MessageReceiptReserved':
        return state.status === 'reserved' ? state : { status: 'reserved', reservation: event.data };
      default:
        return assertNever(event.type, 'message receipt event');
    }
  },
};
