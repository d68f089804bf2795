/** One address a host name resolves to, as node:dns gives it. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/**
 * Resolves a webhook's host name to every address it has, so each can be vetted before a
 * delivery connects (webhook-target.ts). Adapters throw WebhookHostUnresolvedError (retriable)
 * when the name cannot be resolved now; they never return an empty list.
 */
export interface HostResolver {
  resolve(host: string): Promise<ResolvedAddress[]>;
}

export const HOST_RESOLVER = Symbol('HOST_RESOLVER');
