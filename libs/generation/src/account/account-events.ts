import type { Actor, EventDataMap } from '@lomo/contracts';

/** Every event of an `account-{workspaceId}` stream, named exactly as in the contracts registry. */
export const accountEventTypes = [
  'QuoteIssued',
  'QuoteApproved',
  'BudgetApproved',
  'LimitsSet',
  'FundsReserved',
  'ReservationReleased',
  'JobCharged',
  'JobRefunded',
] as const;

export type AccountEventType = (typeof accountEventTypes)[number];

/**
 * `{type, data}` of one account event; `recordedBy` is the stored actor when folded from the log
 * (libs/domain/src/task/task-events.ts). An approval the agent recorded authorizes nothing.
 */
export type AccountEventOf<T extends AccountEventType> = { type: T; data: EventDataMap[T]; recordedBy?: Actor };

export type AccountEvent = { [T in AccountEventType]: AccountEventOf<T> }[AccountEventType];

export type ReservationAuthorization = EventDataMap['FundsReserved']['authorization'];
export type ReleaseReason = EventDataMap['ReservationReleased']['reason'];
