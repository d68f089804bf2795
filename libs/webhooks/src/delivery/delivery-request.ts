import type { EventEnvelope } from '@lomo/contracts';
import type { WebhookRequest } from './http-transport';
import { EVENT_ID_HEADER, EVENT_TYPE_HEADER, SIGNATURE_HEADER, signatureHeader } from './webhook-signature';

/**
 * What a receiver gets: the stored envelope plus its cursor, to resume a replay from, and for an
 * event of a task stream (`task-<taskId>`, e.g. CheckpointOpened) the task's id, so a receiver
 * need not parse stream ids.
 */
export interface DeliveryBody extends EventEnvelope {
  cursor: string;
  taskId?: string;
}

const TASK_STREAM = 'task-';

/**
 * One attempt's request. It is signed at send time, so a retry hours later carries a fresh
 * timestamp and passes the receiver's tolerance; the event id stays the same for dedupe.
 */
export function deliveryRequest(
  url: string,
  webhookId: string,
  event: EventEnvelope,
  secrets: readonly string[],
  attempt: number,
  now: Date,
): WebhookRequest {
  const body: DeliveryBody = {
    type: event.type,
    data: event.data,
    metadata: event.metadata,
    cursor: event.metadata.globalPosition,
    ...(event.metadata.streamId.startsWith(TASK_STREAM)
      ? { taskId: event.metadata.streamId.slice(TASK_STREAM.length) }
      : {}),
  };
  const raw = JSON.stringify(body);
  return {
    url,
    body: raw,
    headers: {
      'content-type': 'application/json',
      'user-agent': 'lomo-notifier/1',
      [SIGNATURE_HEADER]: signatureHeader(raw, secrets, now),
      [EVENT_ID_HEADER]: event.metadata.eventId,
      [EVENT_TYPE_HEADER]: event.type,
      'Lomo-Webhook-Id': webhookId,
      'Lomo-Delivery-Attempt': String(attempt),
    },
  };
}
