import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'Lomo-Signature';
export const EVENT_ID_HEADER = 'Lomo-Event-Id';
export const EVENT_TYPE_HEADER = 'Lomo-Event-Type';
/** Receivers should refuse older signatures, so a captured delivery cannot be replayed later. */
export const DEFAULT_TOLERANCE_SECONDS = 300;

const hmacHex = (secret: string, timestamp: number, rawBody: string | Buffer): string =>
  createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest('hex');

/**
 * `t=<unix seconds>,v1=<hex>[,v1=<hex>...]`: Stripe's scheme, an HMAC-SHA256 of "<t>.<raw body>"
 * per active secret, so a receiver holding either the old or the new secret verifies during a
 * rotation.
 */
export function signatureHeader(rawBody: string | Buffer, secrets: readonly string[], now: Date): string {
  const t = Math.floor(now.getTime() / 1000);
  return [`t=${t}`, ...secrets.map((s) => `v1=${hmacHex(s, t, rawBody)}`)].join(',');
}

export type SignatureVerification =
  | { valid: true; timestamp: number }
  | {
      valid: false;
      reason: 'missing_header' | 'malformed_header' | 'timestamp_out_of_tolerance' | 'no_matching_signature';
    };

/**
 * For receivers (and tests): checks `header` against the raw request body (the exact bytes, not a
 * re-serialised object) with any of `secrets`. A timestamp further than `toleranceSeconds` from
 * `now`, either way, is refused. Comparisons are constant-time.
 */
export function verifyWebhookSignature(
  header: string | undefined | null,
  rawBody: string | Buffer,
  secrets: readonly string[],
  toleranceSeconds: number = DEFAULT_TOLERANCE_SECONDS,
  now: Date = new Date(),
): SignatureVerification {
  if (header === undefined || header === null || header === '') return { valid: false, reason: 'missing_header' };
  let timestamp: number | undefined;
  const signatures: Buffer[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (eq <= 0) return { valid: false, reason: 'malformed_header' };
    if (key === 't') {
      if (!/^\d{1,12}$/.test(value) || timestamp !== undefined) return { valid: false, reason: 'malformed_header' };
      timestamp = Number(value);
    } else if (key === 'v1' && /^[0-9a-f]{64}$/.test(value)) {
      signatures.push(Buffer.from(value, 'hex'));
    }
    // Other schemes (a future v2) are ignored, so receivers keep working when one is added.
  }
  if (timestamp === undefined || signatures.length === 0) return { valid: false, reason: 'malformed_header' };
  if (Math.abs(now.getTime() / 1000 - timestamp) > toleranceSeconds) {
    return { valid: false, reason: 'timestamp_out_of_tolerance' };
  }
  const t = timestamp;
  const matched = secrets.some((secret) => {
    const expected = Buffer.from(hmacHex(secret, t, rawBody), 'hex');
    return signatures.some((candidate) => timingSafeEqual(candidate, expected));
  });
  return matched ? { valid: true, timestamp } : { valid: false, reason: 'no_matching_signature' };
}
