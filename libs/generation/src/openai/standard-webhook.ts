import { createHmac, timingSafeEqual } from 'node:crypto';
import { CallbackRejectedError } from '../provider/generation-errors';

export type CallbackHeaders = Readonly<Record<string, string | string[] | undefined>>;

export interface VerifiedWebhook {
  webhookId: string;
  /** Seconds since the epoch, as signed. */
  timestamp: number;
  payload: unknown;
}

/** OpenAI's SDK default (node_modules/openai/resources/webhooks/webhooks.js, `tolerance = 300`). */
export const DEFAULT_WEBHOOK_TOLERANCE_SECONDS = 300;

/**
 * Verifies a Standard Webhooks delivery (headers webhook-id, webhook-timestamp,
 * webhook-signature) exactly as OpenAI's SDK does in `client.webhooks.verifySignature`: HMAC-SHA256
 * over `{webhook-id}.{webhook-timestamp}.{raw body}`, the secret base64-decoded after a `whsec_`
 * prefix (else its UTF-8 bytes), any of the space-separated `v1,<base64>` signatures may match,
 * and the timestamp must be within the tolerance either way.
 *
 * Reimplemented rather than called because the port's verifyCallback is synchronous while the
 * SDK's is async (WebCrypto), and the SDK reads Date.now() where we need an injected clock.
 * The signature is checked over the raw bytes, before anything is parsed: a body that was
 * re-serialized on the way (key order, whitespace) does not verify, by design.
 */
export function verifyStandardWebhook(
  headers: CallbackHeaders,
  rawBody: Buffer,
  options: { secret: string; nowMs: number; toleranceSeconds?: number },
): VerifiedWebhook {
  const webhookId = single(headers, 'webhook-id');
  const timestampText = single(headers, 'webhook-timestamp');
  const signatures = all(headers, 'webhook-signature');
  if (signatures.length === 0)
    throw new CallbackRejectedError('CALLBACK_BAD_SIGNATURE', 'webhook-signature is missing');
  if (!webhookId) throw new CallbackRejectedError('CALLBACK_MALFORMED', 'webhook-id is missing');
  if (!timestampText || !/^\d{1,12}$/.test(timestampText.trim())) {
    throw new CallbackRejectedError('CALLBACK_MALFORMED', 'webhook-timestamp is missing or not unix seconds');
  }
  const timestamp = Number.parseInt(timestampText.trim(), 10);

  const key = options.secret.startsWith('whsec_')
    ? Buffer.from(options.secret.slice('whsec_'.length), 'base64')
    : Buffer.from(options.secret, 'utf8');
  const expected = createHmac('sha256', key).update(`${webhookId}.${timestampText}.`, 'utf8').update(rawBody).digest();
  const matches = signatures.some((signature) => {
    if (!signature.startsWith('v1,')) return false;
    const given = Buffer.from(signature.slice(3), 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!matches) throw new CallbackRejectedError('CALLBACK_BAD_SIGNATURE', 'no webhook-signature matches the body');

  // Checked after the signature, so only a genuine but old (or replayed) delivery is told "stale".
  const tolerance = options.toleranceSeconds ?? DEFAULT_WEBHOOK_TOLERANCE_SECONDS;
  const nowSeconds = Math.floor(options.nowMs / 1000);
  if (Math.abs(nowSeconds - timestamp) > tolerance) {
    throw new CallbackRejectedError(
      'CALLBACK_STALE_TIMESTAMP',
      `webhook-timestamp ${timestamp} is more than ${tolerance} s from now (${nowSeconds})`,
    );
  }

  let payload: unknown;
  try {
    payload = JSON.parse(rawBody.toString('utf8'));
  } catch {
    throw new CallbackRejectedError('CALLBACK_MALFORMED', 'the webhook body is not JSON');
  }
  return { webhookId, timestamp, payload };
}

function lookup(headers: CallbackHeaders, name: string): string | string[] | undefined {
  if (headers[name] !== undefined) return headers[name];
  const found = Object.keys(headers).find((key) => key.toLowerCase() === name);
  return found === undefined ? undefined : headers[found];
}

function single(headers: CallbackHeaders, name: string): string | undefined {
  const value = lookup(headers, name);
  if (Array.isArray(value)) {
    if (value.length !== 1) throw new CallbackRejectedError('CALLBACK_MALFORMED', `${name} was sent more than once`);
    return value[0];
  }
  return value;
}

/** Signatures may come space-separated in one header (key rotation) or as repeated headers. */
function all(headers: CallbackHeaders, name: string): string[] {
  const value = lookup(headers, name);
  const values = value === undefined ? [] : Array.isArray(value) ? value : [value];
  return values.flatMap((v) => v.split(' ')).filter((v) => v.length > 0);
}
