import { streamDocumentId, type StreamDocument } from '../webhooks/webhook-documents';

/**
 * Pure transitions of one stream's delivery state for one webhook. Order comes from revisions:
 * a stream's events are delivered by reading the stream from `doneRevision + 1`, never from
 * what the scan happened to buffer, so a blocked stream costs no memory however long it waits.
 */

export const isIdle = (s: StreamDocument): boolean =>
  s.blocked === null && s.redelivering === null && s.doneRevision >= s.targetRevision;

export const isReady = (s: StreamDocument, now: Date): boolean =>
  s.blocked === null &&
  s.doneRevision < s.targetRevision &&
  (s.notBefore === null || Date.parse(s.notBefore) <= now.getTime());

export interface Observation {
  state: StreamDocument;
  /** An open dead letter the replay will deliver anyway: closed as `replayed`. */
  superseded: string | null;
}

/**
 * The scan saw a selected event of the stream. Without a stored state, everything before it is
 * done: either before the cursor, or not selected, or delivered (idle states are deleted). A
 * state from before the last replay (older epoch) is rebased on the first event after the
 * replay cursor, so that event and the later ones go again.
 */
export function observe(
  current: StreamDocument | undefined,
  webhookId: string,
  event: { streamId: string; revision: number },
  epoch: number,
): Observation {
  const { streamId, revision } = event;
  if (current === undefined) {
    return {
      state: {
        _id: streamDocumentId(webhookId, streamId),
        webhookId,
        streamId,
        doneRevision: revision - 1,
        targetRevision: revision,
        epoch,
        attempts: 0,
        notBefore: null,
        lastError: null,
        blocked: null,
        redelivering: null,
      },
      superseded: null,
    };
  }
  const state: StreamDocument = { ...current, targetRevision: Math.max(current.targetRevision, revision) };
  let superseded: string | null = null;
  if (current.epoch < epoch) {
    state.epoch = epoch;
    if (state.blocked !== null && state.blocked.revision >= revision) {
      superseded = state.blocked.deadLetterId;
      state.blocked = null;
    }
    if (revision - 1 < state.doneRevision) {
      state.doneRevision = revision - 1;
      state.attempts = 0;
      state.notBefore = null;
    }
  }
  return { state, superseded };
}

/** Not selected for this webhook (another type in the stream): passed over, no delivery. */
export const passOver = (s: StreamDocument, revision: number): StreamDocument => ({ ...s, doneRevision: revision });

/** Delivered; returns the dead letter this delivery resolves, if it was being redelivered. */
export function delivered(s: StreamDocument, revision: number): { state: StreamDocument; resolved: string | null } {
  const resolved = s.redelivering !== null && revision >= s.redelivering.revision ? s.redelivering.deadLetterId : null;
  return {
    state: {
      ...s,
      doneRevision: revision,
      attempts: 0,
      notBefore: null,
      lastError: null,
      redelivering: resolved === null ? s.redelivering : null,
    },
    resolved,
  };
}

/** A failed attempt that will be retried at `notBefore`. */
export const failed = (s: StreamDocument, error: string, notBefore: Date): StreamDocument => ({
  ...s,
  attempts: s.attempts + 1,
  lastError: error,
  notBefore: notBefore.toISOString(),
});

/** The last allowed attempt failed: the stream waits behind this dead letter. */
export const deadLettered = (
  s: StreamDocument,
  error: string,
  deadLetterId: string,
  revision: number,
): StreamDocument => ({
  ...s,
  attempts: 0,
  notBefore: null,
  lastError: error,
  blocked: { deadLetterId, revision },
  redelivering: null,
});

/** Redelivery requested: a new cycle of attempts for the dead-lettered event. */
export const redeliverFrom = (s: StreamDocument, deadLetterId: string, revision: number): StreamDocument => ({
  ...s,
  blocked: null,
  attempts: 0,
  notBefore: null,
  redelivering: { deadLetterId, revision },
});

/** Skip requested: the event counts as done, the stream's later events go on. */
export const skipTo = (s: StreamDocument, deadLetterId: string, revision: number): StreamDocument => ({
  ...s,
  doneRevision: Math.max(s.doneRevision, revision),
  blocked: s.blocked?.deadLetterId === deadLetterId ? null : s.blocked,
  redelivering: s.redelivering?.deadLetterId === deadLetterId ? null : s.redelivering,
  attempts: 0,
  notBefore: null,
});
