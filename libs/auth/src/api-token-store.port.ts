import type { ApiTokenRecord } from './api-token';

export const API_TOKEN_STORE = Symbol('API_TOKEN_STORE');

export interface NewApiToken {
  id: string;
  workspaceId: string;
  userId: string;
  name: string;
  secretHash: string;
  createdAt: string;
}

export type RevokeOutcome = 'revoked' | 'already_revoked' | 'not_found';

/**
 * API tokens, hashed. Kept apart from the event log: tokens are credentials, not facts of the
 * product, and revoking one must not wait for a projection. SQLite in embedded mode; a MongoDB
 * adapter follows this port for the distributed deployment.
 */
export interface ApiTokenStore {
  insert(token: NewApiToken): Promise<ApiTokenRecord>;
  /** The token whose secret hashes to this, unless it is revoked. Read on every request: no cache. */
  findActiveByHash(secretHash: string): Promise<ApiTokenRecord | undefined>;
  list(filter?: { workspaceId?: string; includeRevoked?: boolean }): Promise<ApiTokenRecord[]>;
  revoke(id: string, at: string): Promise<RevokeOutcome>;
  close(): Promise<void>;
}
