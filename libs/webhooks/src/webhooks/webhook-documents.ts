import type { TokenKind } from '@lomo/auth';
import type { DocumentInput, IndexSpec } from '@lomo/read-models';

/** Collections of the notifier in the DocumentStore (SQLite embedded, MongoDB distributed). */
export const Collections = {
  webhooks: 'notifier_webhooks',
  /** One per webhook: where its scan of the event store resumes. Written by the engine only. */
  cursors: 'notifier_cursors',
  /** One per (webhook, stream) with work pending or blocked; deleted once the stream is idle. */
  streams: 'notifier_streams',
  deadLetters: 'notifier_dead_letters',
  leases: 'notifier_leases',
} as const;

export const notifierIndexes: ReadonlyArray<readonly [string, readonly IndexSpec[]]> = [
  [Collections.webhooks, [{ fields: { workspaceId: 1, createdAt: 1 } }, { fields: { status: 1 } }]],
  [Collections.streams, [{ fields: { webhookId: 1 } }]],
  [
    Collections.deadLetters,
    [{ fields: { webhookId: 1, createdAt: 1 } }, { fields: { status: 1 } }, { fields: { webhookId: 1, status: 1 } }],
  ],
];

export type WebhookStatus = 'active' | 'disabled' | 'deleted';

export type SecretEntry = {
  id: string;
  secret: string;
  createdAt: string;
  /** null: the current secret. A previous one stays valid until then. */
  expiresAt: string | null;
};

export type ReplayRequest = { id: string; fromCursor: string; requestedAt: string };

/** Who registered a webhook: its deliveries are what this caller may see (libs/auth visibility-policy.ts). */
export interface WebhookRegistrant {
  tokenId: string;
  userId: string;
  kind: TokenKind;
  [field: string]: string;
}

export interface WebhookDocument extends DocumentInput {
  workspaceId: string;
  /**
   * null for webhooks registered before registrants were recorded, or through the service without
   * a caller: they get the workspace's shared streams only, never a person's main line or memory.
   */
  registeredBy?: WebhookRegistrant | null;
  url: string;
  /** Event types and stream categories, as registered. */
  eventTypes: string[];
  description: string | null;
  status: WebhookStatus;
  disabledReason: string | null;
  secrets: SecretEntry[];
  /** Head of the store at registration: deliveries start after it. null = from the start. */
  startPosition: string | null;
  replay: ReplayRequest | null;
  createdAt: string;
  updatedAt: string;
}

export interface CursorDocument extends DocumentInput {
  webhookId: string;
  /** Exclusive; null = from the start of the store. */
  position: string | null;
  /** Raised by every replay; stream states of an older epoch are rebased on first sight. */
  epoch: number;
  /** The replay request this cursor reflects, so a request is applied once. */
  replayId: string | null;
}

/** A dead letter and the revision of its event in the stream. */
export type DeadLetterRef = { deadLetterId: string; revision: number };

export interface StreamDocument extends DocumentInput {
  webhookId: string;
  streamId: string;
  /** Last revision done for this webhook (delivered, skipped, or not selected); -1 = none. */
  doneRevision: number;
  /** Highest revision the scan has seen for this webhook. */
  targetRevision: number;
  epoch: number;
  /** Failed attempts of the stream's next event in the current cycle. */
  attempts: number;
  /** ISO time before which the next attempt must not start. */
  notBefore: string | null;
  lastError: string | null;
  /** The stream's later events wait while this dead letter is open. */
  blocked: DeadLetterRef | null;
  /** A dead letter whose event is being redelivered; resolved once delivery passes its revision. */
  redelivering: DeadLetterRef | null;
}

/**
 * open -> redelivery_requested -> redelivering -> redelivered (or open again after N failures);
 * open -> skip_requested -> skipped; open -> replayed when a replay re-delivers its event anyway.
 * The service writes the *_requested states; the engine writes the others.
 */
export type DeadLetterStatus =
  'open' | 'redelivery_requested' | 'redelivering' | 'redelivered' | 'skip_requested' | 'skipped' | 'replayed';

export interface DeadLetterDocument extends DocumentInput {
  workspaceId: string;
  webhookId: string;
  streamId: string;
  eventId: string;
  eventType: string;
  revision: number;
  /** The event's position: the cursor integrators see. */
  position: string;
  /** Failed attempts over every cycle. */
  attempts: number;
  lastError: string | null;
  status: DeadLetterStatus;
  createdAt: string;
  updatedAt: string;
  resolvedAt: string | null;
}

export interface LeaseDocument extends DocumentInput {
  owner: string;
  until: string;
}

export const streamDocumentId = (webhookId: string, streamId: string) => `${webhookId}|${streamId}`;
