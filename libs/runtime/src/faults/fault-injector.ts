/**
 * Named points in the step loop where tests make a worker hang, fail or die. Production uses
 * `noFaults`, whose `at` returns undefined so the hot path pays no promise per point.
 */
export const faultPoints = [
  'after-lease-taken',
  'after-claim',
  'before-model-call',
  'after-model-reply',
  'after-step-committed',
  'after-tool-started',
  'after-tool-ran-before-completion',
  /** Every runtime append: the decision (events + expected revision) is made, the store not yet called. */
  'between-read-and-append',
] as const;
export type FaultPoint = (typeof faultPoints)[number];

/** What the worker was doing at the point; tests match on it to pick one worker or one call. */
export interface FaultContext {
  point: FaultPoint;
  workerId: string;
  taskId: string;
  turnId?: string;
  generation?: number;
  step?: number;
  callId?: string;
  streamId?: string;
  expectedRevision?: number | 'no_stream';
  eventTypes?: readonly string[];
}

export interface FaultInjector {
  /** undefined: carry on at once. A promise: wait for it (it may reject, as a crash would). */
  at(context: FaultContext): Promise<void> | undefined;
}

export const noFaults: FaultInjector = { at: () => undefined };
