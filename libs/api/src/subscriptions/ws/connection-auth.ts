import { type ApiTokens, hashTokenSecret, authenticate, type Caller } from '@lomo/auth';

export interface ConnectionIdentity {
  caller: Caller;
  /** Kept to re-check the token while the connection lives; the secret itself is not. */
  secretHash: string;
}

/**
 * The token of a graphql-ws connection: `connectionParams.authorization` (browsers cannot set
 * headers on a WebSocket), `Bearer lomo_...`, as on HTTP. Throws UNAUTHENTICATED like HTTP does.
 */
export async function authenticateConnection(
  params: Readonly<Record<string, unknown>> | undefined,
  tokens: ApiTokens,
): Promise<ConnectionIdentity> {
  const raw = params?.authorization ?? params?.Authorization;
  const header = typeof raw === 'string' ? raw : undefined;
  const caller = await authenticate(header, tokens);
  // authenticate accepted it, so it is "Bearer <secret>".
  const secret = (header ?? '').slice('Bearer '.length);
  return { caller, secretHash: hashTokenSecret(secret) };
}
