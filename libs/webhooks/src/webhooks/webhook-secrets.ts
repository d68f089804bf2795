import { randomBytes } from 'node:crypto';
import { SecretBox } from './secret-box';
import type { SecretEntry } from './webhook-documents';

/** Kept small: every delivery carries one signature per active secret. */
export const MAX_ACTIVE_SECRETS = 5;

/** 192 random bits; the prefix makes a leaked secret recognisable to secret scanners. */
export const generateSecret = (): string => `whsec_${randomBytes(24).toString('base64url')}`;

export const isActive = (entry: SecretEntry, now: Date): boolean =>
  entry.expiresAt === null || Date.parse(entry.expiresAt) > now.getTime();

export const activeEntries = (entries: readonly SecretEntry[], now: Date): SecretEntry[] =>
  entries.filter((e) => isActive(e, now));

/**
 * Secrets are stored sealed by the SecretBox (LOMO_SECRETS_KEY), each bound to its webhook and
 * entry. Documents written before encryption hold plain values (no `enc:` prefix): they are read
 * as they are, and sealed by the next write of their document (a rotation or any other update).
 */
const secretContext = (webhookId: string, entry: SecretEntry) => `webhook:${webhookId}:secret:${entry.id}`;

/** Every plain value sealed; sealed ones are kept as they are. */
export const sealEntries = (box: SecretBox, webhookId: string, entries: readonly SecretEntry[]): SecretEntry[] =>
  entries.map((e) =>
    SecretBox.isSealed(e.secret) ? e : { ...e, secret: box.seal(e.secret, secretContext(webhookId, e)) },
  );

/** The signing values; throws SecretKeyMismatchError or SecretUnreadableError for a value it cannot open. */
export const revealSecrets = (box: SecretBox, webhookId: string, entries: readonly SecretEntry[]): string[] =>
  entries.map((e) => (SecretBox.isSealed(e.secret) ? box.open(e.secret, secretContext(webhookId, e)) : e.secret));

/**
 * Adds `next` as the current secret; the previous ones stay valid for `graceSeconds` (never
 * longer than they already had), so receivers can roll their configuration without a gap.
 * Expired entries and, past the bound, the oldest ones are dropped.
 */
export function rotate(
  entries: readonly SecretEntry[],
  next: SecretEntry,
  graceSeconds: number,
  now: Date,
): SecretEntry[] {
  const graceEnd = new Date(now.getTime() + graceSeconds * 1000).toISOString();
  const previous = entries
    .filter((e) => isActive(e, now))
    .map((e) => ({ ...e, expiresAt: e.expiresAt === null || e.expiresAt > graceEnd ? graceEnd : e.expiresAt }))
    .filter((e) => isActive(e, now));
  return [...previous.slice(-(MAX_ACTIVE_SECRETS - 1)), next];
}
