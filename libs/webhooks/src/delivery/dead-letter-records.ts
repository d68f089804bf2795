import { deterministicUuid, type EventEnvelope } from '@lomo/contracts';
import { DocumentConflictError, type DocumentStore } from '@lomo/read-models';
import { updateDocument } from '../update-document';
import { Collections, type DeadLetterDocument, type DeadLetterStatus } from '../webhooks/webhook-documents';

const MAX_CONFLICTS = 8;
const terminal: ReadonlySet<DeadLetterStatus> = new Set(['redelivered', 'skipped', 'replayed']);

/** One dead letter per (webhook, event): dead-lettering the same event again reopens it. */
export const deadLetterIdFor = (webhookId: string, eventId: string): string =>
  deterministicUuid('lomo.notifier.dead-letter', webhookId, eventId);

/** Creates or reopens the event's dead letter, adding this cycle's attempts. Idempotent per id. */
export async function openDeadLetter(
  documents: DocumentStore,
  webhook: { id: string; workspaceId: string },
  event: EventEnvelope,
  attempts: number,
  error: string,
  now: Date,
): Promise<string> {
  const id = deadLetterIdFor(webhook.id, event.metadata.eventId);
  const at = now.toISOString();
  for (let conflicts = 0; ; conflicts += 1) {
    const current = await documents.get<DeadLetterDocument>(Collections.deadLetters, id);
    const doc: DeadLetterDocument = {
      _id: id,
      workspaceId: webhook.workspaceId,
      webhookId: webhook.id,
      streamId: event.metadata.streamId,
      eventId: event.metadata.eventId,
      eventType: event.type,
      revision: event.metadata.revision,
      position: event.metadata.globalPosition,
      attempts: (current?.attempts ?? 0) + attempts,
      lastError: error,
      status: 'open',
      createdAt: current?.createdAt ?? at,
      updatedAt: at,
      resolvedAt: null,
    };
    try {
      await documents.upsert(Collections.deadLetters, doc, { expectedVersion: current?._version ?? 0 });
      return id;
    } catch (e) {
      if (!(e instanceof DocumentConflictError) || conflicts + 1 >= MAX_CONFLICTS) throw e;
    }
  }
}

/** Moves a dead letter on; a resolved one (terminal status) is never moved again. */
export async function settleDeadLetter(
  documents: DocumentStore,
  id: string,
  status: DeadLetterStatus,
  now: Date,
): Promise<void> {
  await updateDocument<DeadLetterDocument>(documents, Collections.deadLetters, id, (current) => {
    if (terminal.has(current.status) || current.status === status) return undefined;
    const at = now.toISOString();
    return { ...current, status, updatedAt: at, resolvedAt: terminal.has(status) ? at : null };
  });
}
