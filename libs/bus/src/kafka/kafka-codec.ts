import type { IHeaders, KafkaMessage, Message } from 'kafkajs';
import type { DeadLetter, OutgoingMessage, ReceivedMessage } from '../event-bus.port';

/** Values travel as JSON text (already validated and serialized by serializeMessages). */
export function toKafkaMessages(messages: readonly OutgoingMessage[], values: readonly string[]): Message[] {
  return messages.map((m, i) => ({ key: m.key, value: values[i], headers: m.headers ? { ...m.headers } : undefined }));
}

export class UndecodableMessageError extends Error {}

/**
 * A record as the port hands it to handlers. Something another producer wrote that is not a JSON
 * object cannot be, and throws UndecodableMessageError (the consumer dead-letters it).
 */
export function fromKafkaMessage(topic: string, partition: number, message: KafkaMessage): ReceivedMessage {
  const text = message.value?.toString('utf8') ?? '';
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new UndecodableMessageError(`offset ${message.offset}: value is not JSON`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new UndecodableMessageError(`offset ${message.offset}: value is not a JSON object`);
  }
  return {
    topic,
    partition,
    offset: Number(message.offset),
    key: message.key?.toString('utf8') ?? '',
    value: value as Record<string, unknown>,
    headers: decodeHeaders(message.headers),
    timestamp: Number(message.timestamp),
  };
}

/** What a handler gets when fromKafkaMessage refused the record: the raw text, for the dead letter. */
export function rawReceivedMessage(topic: string, partition: number, message: KafkaMessage): ReceivedMessage {
  return {
    topic,
    partition,
    offset: Number(message.offset),
    key: message.key?.toString('utf8') ?? '',
    value: { raw: message.value?.toString('utf8') ?? null },
    headers: decodeHeaders(message.headers),
    timestamp: Number(message.timestamp),
  };
}

function decodeHeaders(headers: IHeaders | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (value === undefined) continue;
    // Kafka allows repeated header names; the port has one value per name, the last one wins.
    const last = Array.isArray(value) ? value[value.length - 1] : value;
    if (last !== undefined) out[name] = last.toString();
  }
  return out;
}

export function encodeDeadLetter(record: DeadLetter): Message {
  return {
    key: record.groupId,
    value: JSON.stringify(record),
    headers: { groupId: record.groupId, topic: record.topic },
  };
}

export function decodeDeadLetter(message: KafkaMessage): DeadLetter | undefined {
  try {
    const record = JSON.parse(message.value?.toString('utf8') ?? '') as DeadLetter;
    return typeof record.groupId === 'string' && typeof record.message === 'object' ? record : undefined;
  } catch {
    return undefined;
  }
}
