import { createHmac, timingSafeEqual } from 'node:crypto';

/*
 * Callback signing scheme of the simulated upstream (modelled on the usual webhook schemes):
 *
 *   x-sim-event-id:   the delivery's event id (a duplicate delivery carries the same id)
 *   x-sim-timestamp:  unix time in whole seconds when the delivery was signed
 *   x-sim-signature:  v1=<hex HMAC-SHA256(secret, `${eventId}.${timestamp}.${rawBody}`)>
 *
 * The signature covers the raw body bytes exactly as sent, so a receiver must verify before it
 * parses: a body re-serialized (other whitespace, other key order) no longer verifies. The id
 * and timestamp are signed too, so neither can be swapped onto another body. Several `v1=`
 * entries separated by commas are accepted (secret rotation on the sender's side).
 */
export const SIM_EVENT_ID_HEADER = 'x-sim-event-id';
export const SIM_TIMESTAMP_HEADER = 'x-sim-timestamp';
export const SIM_SIGNATURE_HEADER = 'x-sim-signature';

export function simulatedCallbackSignature(
  secret: string,
  eventId: string,
  timestampSeconds: number,
  rawBody: string | Buffer,
): string {
  const mac = createHmac('sha256', secret);
  mac.update(`${eventId}.${timestampSeconds}.`, 'utf8');
  mac.update(typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : rawBody);
  return `v1=${mac.digest('hex')}`;
}

/** Timing-safe: compares the digests, never the strings, and never short-circuits on content. */
export function simulatedSignatureMatches(
  secret: string,
  eventId: string,
  timestampSeconds: number,
  rawBody: Buffer,
  header: string,
): boolean {
  const expected = Buffer.from(simulatedCallbackSignature(secret, eventId, timestampSeconds, rawBody), 'utf8');
  let matched = false;
  for (const candidate of header.split(',').map((s) => s.trim())) {
    const given = Buffer.from(candidate, 'utf8');
    if (given.length === expected.length && timingSafeEqual(given, expected)) matched = true;
  }
  return matched;
}
