import type { StoredDocument } from '@lomo/read-models';
import type { DeadLetterDocument, DeadLetterStatus, WebhookDocument } from './webhook-documents';
import { isActive } from './webhook-secrets';

/** What callers see of a webhook: never a secret's value (it is shown once, when created). */
export interface WebhookView {
  id: string;
  workspaceId: string;
  url: string;
  eventTypes: string[];
  description: string | null;
  status: 'active' | 'disabled';
  disabledReason: string | null;
  /** Active secrets: the current one (expiresAt null) and previous ones until they expire. */
  secrets: { id: string; createdAt: string; expiresAt: string | null }[];
  replayRequestedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface DeadLetterView {
  id: string;
  webhookId: string;
  streamId: string;
  eventId: string;
  eventType: string;
  revision: number;
  /** The event's position in the store, as in delivery bodies. */
  cursor: string;
  attempts: number;
  lastError: string | null;
  status: DeadLetterStatus;
  createdAt: string;
  updatedAt: string;
  resolvedAt: string | null;
}

export interface DeadLetterPage {
  items: DeadLetterView[];
  endCursor: string | null;
  hasMore: boolean;
}

/** A dead letter with its workspace: what an operator lists across workspaces. */
export interface WorkspaceDeadLetterView extends DeadLetterView {
  workspaceId: string;
}

export interface WorkspaceDeadLetterPage {
  items: WorkspaceDeadLetterView[];
  endCursor: string | null;
  hasMore: boolean;
}

export function webhookView(doc: WebhookDocument, now: Date): WebhookView {
  return {
    id: doc._id,
    workspaceId: doc.workspaceId,
    url: doc.url,
    eventTypes: [...doc.eventTypes],
    description: doc.description,
    // Deleted ones are never shown; the service answers not found first.
    status: doc.status === 'active' ? 'active' : 'disabled',
    disabledReason: doc.disabledReason,
    secrets: doc.secrets
      .filter((s) => isActive(s, now))
      .map((s) => ({ id: s.id, createdAt: s.createdAt, expiresAt: s.expiresAt })),
    replayRequestedAt: doc.replay?.requestedAt ?? null,
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
  };
}

export function deadLetterView(doc: StoredDocument<DeadLetterDocument> | DeadLetterDocument): DeadLetterView {
  return {
    id: doc._id,
    webhookId: doc.webhookId,
    streamId: doc.streamId,
    eventId: doc.eventId,
    eventType: doc.eventType,
    revision: doc.revision,
    cursor: doc.position,
    attempts: doc.attempts,
    lastError: doc.lastError,
    status: doc.status,
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
    resolvedAt: doc.resolvedAt,
  };
}
