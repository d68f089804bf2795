import { createHash, randomBytes } from 'node:crypto';

/** Secrets start with this, so scanners and people recognise a leaked one. */
export const TOKEN_PREFIX = 'lomo_';
/** 32 random bytes: guessing is hopeless, so a plain sha256 (no salt, no stretching) is enough. */
const SECRET_BYTES = 32;
export const tokenSecretPattern = /^lomo_[A-Za-z0-9_-]{43}$/;

/**
 * What a token may do (docs: DESIGN.md §4 "Tenancy"): `person` acts for one user in one workspace;
 * `integration` is an external system acting in a workspace; `operator` reads across workspaces
 * for support and replay. The visibility policy (visibility-policy.ts) decides what each sees.
 */
export const tokenKinds = ['person', 'integration', 'operator'] as const;
export type TokenKind = (typeof tokenKinds)[number];
/** Tokens issued before kinds existed act for their user. */
export const DEFAULT_TOKEN_KIND: TokenKind = 'person';

export interface ApiTokenRecord {
  id: string;
  workspaceId: string;
  userId: string;
  name: string;
  kind: TokenKind;
  createdAt: string;
  revokedAt: string | null;
}

export function generateTokenSecret(): string {
  return `${TOKEN_PREFIX}${randomBytes(SECRET_BYTES).toString('base64url')}`;
}

/** What the store keeps: the secret itself is shown once and never stored. */
export function hashTokenSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}
