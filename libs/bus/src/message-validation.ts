import { isLomoError } from '@lomo/contracts';
import { InvalidMessageError } from './errors';
import type { DeadLetterError, OutgoingMessage, TopicSpec } from './event-bus.port';

const topicNamePattern = /^[A-Za-z0-9._-]{1,249}$/;
const MAX_KEY_BYTES = 1024;

/** Kafka's own topic name rule, so a name valid here is valid on the broker too. */
export function validateTopicSpecs(topics: readonly TopicSpec[]): void {
  const issues: Array<{ path: string; message: string }> = [];
  topics.forEach((t, i) => {
    if (!topicNamePattern.test(t.name))
      issues.push({ path: `[${i}].name`, message: 'topic names are 1-249 of [A-Za-z0-9._-]' });
    if (!Number.isInteger(t.partitions) || t.partitions < 1 || t.partitions > 1000) {
      issues.push({ path: `[${i}].partitions`, message: 'partitions must be an integer from 1 to 1000' });
    }
  });
  if (issues.length > 0) throw new InvalidMessageError('Invalid topic specification', issues);
}

/**
 * Every message of a publish call is checked before any is written, so a bad one never leaves
 * half a batch behind. Returns the JSON text of each value (the form both adapters store).
 */
export function serializeMessages(messages: readonly OutgoingMessage[]): string[] {
  const issues: Array<{ path: string; message: string }> = [];
  const values = messages.map((m, i) => {
    if (typeof m.key !== 'string' || m.key.length === 0 || Buffer.byteLength(m.key) > MAX_KEY_BYTES) {
      issues.push({ path: `[${i}].key`, message: `key must be a non-empty string of at most ${MAX_KEY_BYTES} bytes` });
    }
    for (const [name, value] of Object.entries(m.headers ?? {})) {
      if (typeof value !== 'string')
        issues.push({ path: `[${i}].headers.${name}`, message: 'header values must be strings' });
    }
    const json = jsonObjectText(m.value);
    if (json === undefined) issues.push({ path: `[${i}].value`, message: 'value must be a JSON-serializable object' });
    return json ?? '';
  });
  if (issues.length > 0) throw new InvalidMessageError('Invalid message', issues);
  return values;
}

function jsonObjectText(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  let text: string;
  try {
    text = JSON.stringify(value);
  } catch {
    return undefined; // cycles, BigInt
  }
  // A value that changes on a round trip (Dates, NaN, Maps) would reach consumers
  // different from what the producer sent; refuse it rather than deliver a surprise.
  return isDeepStrictEqualJson(value, JSON.parse(text)) ? text : undefined;
}

function isDeepStrictEqualJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  // Map, Set, class instances: JSON keeps none of them as they are (checked realm-safely).
  if (!Array.isArray(a) && Object.prototype.toString.call(a) !== '[object Object]') return false;
  // An undefined property is simply absent in JSON: harmless, so it is not a difference.
  const ka = Object.keys(a).filter((k) => (a as Record<string, unknown>)[k] !== undefined);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  return ka.every((k) => Object.prototype.hasOwnProperty.call(rb, k) && isDeepStrictEqualJson(ra[k], rb[k]));
}

/** The `{code, message}` a dead-letter record keeps of a handler's error. */
export function describeHandlerError(error: unknown): DeadLetterError {
  if (isLomoError(error)) return { code: error.code, message: error.message };
  if (error instanceof Error) return { code: 'HANDLER_FAILED', message: error.message };
  return { code: 'HANDLER_FAILED', message: String(error) };
}
