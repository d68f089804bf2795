import { RelayHeaders, type DeadLetter } from '@lomo/bus';
import type { WorkspaceDeadLetterView } from '@lomo/webhooks';
import { MEMORY_CONSUMER_GROUP } from '../relay/consumer-groups';
import { formatDeadLetterId } from './dead-letter-ids';

/** `memory` is the memory group's bus letters (extraction), labelled apart for operators. */
export type DeadLetterSource = 'bus' | 'memory' | 'webhook';
export const deadLetterSources: readonly DeadLetterSource[] = ['bus', 'memory', 'webhook'];

/** One dead letter, whichever kind: what `lomo dlq list` shows. */
export interface DeadLetterRow {
  source: DeadLetterSource;
  /** Stable: `bus:<group>:<topic>:<partition>:<offset>` or `webhook:<id>` (dead-letter-ids.ts). */
  id: string;
  /** The consumer group (bus, memory). */
  group: string | null;
  webhookId: string | null;
  /** The topic the message was on (bus, memory). */
  topic: string | null;
  workspaceId: string | null;
  eventType: string | null;
  eventId: string | null;
  streamId: string | null;
  error: { code: string; message: string };
  attempts: number;
  deadLetteredAt: string;
  /** A bus letter an operator sent back; a webhook letter whose redelivery is requested or done. */
  redriven: boolean;
  /** A webhook letter's own status; `open` or `redriven` for a bus letter. */
  status: string;
  /** Whether a redrive may select it now. */
  redrivable: boolean;
}

/** A row and, for a bus letter, the record a redrive publishes again. */
export interface CollectedDeadLetter {
  row: DeadLetterRow;
  letter?: DeadLetter;
}

/** What a Kafka record that was not JSON is dead-lettered with: there is nothing to send again. */
const UNDECODABLE = 'BUS_UNDECODABLE_MESSAGE';

export function busDeadLetterRow(letter: DeadLetter, redriven: boolean): CollectedDeadLetter {
  const { message } = letter;
  const header = (name: string) => message.headers[name] ?? null;
  return {
    letter,
    row: {
      source: letter.groupId === MEMORY_CONSUMER_GROUP ? 'memory' : 'bus',
      id: formatDeadLetterId({
        kind: 'bus',
        groupId: letter.groupId,
        topic: message.topic,
        partition: message.partition,
        offset: message.offset,
      }),
      group: letter.groupId,
      webhookId: null,
      topic: message.topic,
      workspaceId: header(RelayHeaders.workspaceId),
      eventType: header(RelayHeaders.type),
      eventId: header(RelayHeaders.eventId),
      streamId: header(RelayHeaders.streamId),
      error: { ...letter.error },
      attempts: letter.attempts,
      deadLetteredAt: letter.deadLetteredAt,
      redriven,
      status: redriven ? 'redriven' : 'open',
      redrivable: !redriven && letter.error.code !== UNDECODABLE,
    },
  };
}

const redrivenStatuses = new Set(['redelivery_requested', 'redelivering', 'redelivered']);

export function webhookDeadLetterRow(view: WorkspaceDeadLetterView): CollectedDeadLetter {
  return {
    row: {
      source: 'webhook',
      id: formatDeadLetterId({ kind: 'webhook', deadLetterId: view.id }),
      group: null,
      webhookId: view.webhookId,
      topic: null,
      workspaceId: view.workspaceId,
      eventType: view.eventType,
      eventId: view.eventId,
      streamId: view.streamId,
      error: { code: 'WEBHOOK_DELIVERY_FAILED', message: view.lastError ?? '' },
      attempts: view.attempts,
      deadLetteredAt: view.createdAt,
      redriven: redrivenStatuses.has(view.status),
      status: view.status,
      // A redelivery that failed again reopens the letter: it may be redriven once more.
      redrivable: view.status === 'open',
    },
  };
}
