import { LomoError } from '@lomo/contracts';
import type { ApiTokenRecord, TokenKind } from './api-token';

export const API_TOKEN_STORE = Symbol('API_TOKEN_STORE');

export interface NewApiToken {
  id: string;
  workspaceId: string;
  userId: string;
  name: string;
  kind: TokenKind;
  secretHash: string;
  createdAt: string;
}

export type RevokeOutcome = 'revoked' | 'already_revoked' | 'not_found';

/** An insert whose id or secret hash is already stored; nothing was written. */
export class TokenConflictError extends LomoError {
  readonly code = 'TOKEN_CONFLICT';
  readonly retriable = false;
  constructor(id: string) {
    super(`A token with id ${id} or the same secret is already stored`, { tokenId: id });
  }
}

/**
 * API tokens, hashed. Kept apart from the event log: tokens are credentials, not facts of the
 * product, and revoking one must not wait for a projection. One adapter over the DocumentStore
 * port (document-api-token-store.ts): the read-model SQLite file when embedded, MongoDB when
 * distributed, so every API instance and the CLI see the same tokens. The contract every adapter
 * passes is testing/api-token-store.contract.ts.
 */
export interface ApiTokenStore {
  /** TokenConflictError when the id or the secret hash is taken. */
  insert(token: NewApiToken): Promise<ApiTokenRecord>;
  /**
   * The token whose secret hashes to this, unless it is revoked. Adapters read the storage on
   * every call; CachingApiTokenStore adds a bounded cache in front (caching-api-token-store.ts).
   */
  findActiveByHash(secretHash: string): Promise<ApiTokenRecord | undefined>;
  list(filter?: { workspaceId?: string; includeRevoked?: boolean }): Promise<ApiTokenRecord[]>;
  revoke(id: string, at: string): Promise<RevokeOutcome>;
  close(): Promise<void>;
}
