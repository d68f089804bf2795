import { ApiError, ApiErrorCodes } from '@lomo/contracts';
import { tokenSecretPattern, type ApiTokenRecord } from './api-token';
import type { ApiTokens } from './api-tokens';
import type { Caller } from './caller';

const unauthenticated = (message: string) =>
  new ApiError(ApiErrorCodes.UNAUTHENTICATED, message, {}, { httpStatus: 401 });

/**
 * Resolves `Authorization: Bearer lomo_...` to its caller. The store is asked on every request
 * (an indexed lookup by hash, behind at most the bounded cache of caching-api-token-store.ts), so
 * a revoked token is refused from the next request on, or within LOMO_AUTH_TOKEN_CACHE_MS.
 */
export async function authenticate(header: string | undefined, tokens: ApiTokens): Promise<Caller> {
  if (header === undefined || header === '') throw unauthenticated('Missing bearer token');
  const match = /^Bearer (\S+)$/.exec(header);
  if (!match || !tokenSecretPattern.test(match[1])) throw unauthenticated('Malformed bearer token');
  const record = await tokens.findActive(match[1]);
  if (record === undefined) throw unauthenticated('Unknown or revoked token');
  return callerOf(record);
}

/** The caller an active token stands for (the API's requests, the `lomo` CLI). */
export const callerOf = (record: ApiTokenRecord): Caller => ({
  tokenId: record.id,
  tokenName: record.name,
  workspaceId: record.workspaceId,
  userId: record.userId,
  kind: record.kind,
});
