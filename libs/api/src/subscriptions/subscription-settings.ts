import type { ApiSettings } from '../api-settings';

export const SUBSCRIPTION_SETTINGS = Symbol('SUBSCRIPTION_SETTINGS');

/**
 * Limits of the live API (graphql-ws on /graphql). Defaults until libs/config names variables
 * for them; ApiModule's `subscriptions` option overrides them.
 */
export interface SubscriptionSettings {
  /** Open subscriptions one token may hold on this instance, over all its connections. */
  maxSubscriptionsPerToken: number;
  /** Largest WebSocket frame a client may send; larger ones close the socket (1009). */
  maxMessageBytes: number;
  /** How often open connections re-check that their token is still live. */
  authRecheckMs: number;
  /** Payloads waiting for one slow subscriber before it is cut off. */
  outboxCapacity: number;
  /** How long a full outbox may stay full before the subscriber is cut off as SLOW_CONSUMER. */
  slowConsumerTimeoutMs: number;
  /** Events read from the store per page of the event feed. */
  feedPageSize: number;
  /** A caught-up feed re-reads at least this often, even when the store tail reports nothing. */
  feedIdlePollMs: number;
  /** Server pings; a peer that misses a pong for this long is dropped. */
  keepAliveMs: number;
  /** A socket must send connection_init within this. */
  connectionInitTimeoutMs: number;
  /** Main-line items whose last sent revision a subscription remembers (to drop stale states). */
  trackedItems: number;
}

export function subscriptionSettings(
  api: Pick<ApiSettings, 'maxBodyBytes' | 'maxSubscriptionsPerToken'>,
): SubscriptionSettings {
  return {
    maxSubscriptionsPerToken: api.maxSubscriptionsPerToken,
    maxMessageBytes: api.maxBodyBytes,
    authRecheckMs: 30_000,
    outboxCapacity: 100,
    slowConsumerTimeoutMs: 10_000,
    feedPageSize: 100,
    feedIdlePollMs: 5_000,
    keepAliveMs: 12_000,
    connectionInitTimeoutMs: 3_000,
    trackedItems: 1_000,
  };
}
