import type { LomoConfig } from '@lomo/config';

export interface ApiSettings {
  /** SQLite file of the API tokens (embedded mode). */
  authSqlitePath: string;
  maxBodyBytes: number;
  /** Operations per batched HTTP request. */
  maxBatch: number;
  /** Largest media upload (POST /media), LOMO_MEDIA_MAX_BYTES. */
  mediaMaxBytes: number;
  maxDepth: number;
  /** Static cost: every selected field counts once per item its enclosing pages may return. */
  maxCost: number;
  /** Aliased fields, directives (fragments expanded) and lexical tokens per operation. */
  maxAliases: number;
  maxDirectives: number;
  maxTokens: number;
  /** Per API token, counted in operations (a batch of 5 takes 5). */
  rateLimit: { burst: number; perSecond: number };
  /** Per client address (`req.ip`), counted in HTTP requests and WebSocket connections, before authentication. */
  ipRateLimit: { burst: number; perSecond: number };
  /** Express `trust proxy` hop count; 0 keeps it off, so `req.ip` is the socket's peer address. */
  trustProxy: number;
  introspection: boolean;
  consistencyTimeoutMs: number;
  /** Open graphql-ws subscriptions per token, per API process. */
  maxSubscriptionsPerToken: number;
  /** Stack traces and internal messages in responses: only with LOMO_DEBUG_ERRORS=true. */
  exposeInternals: boolean;
  /** "Did you mean …?" hints name fields, types and enum values: off in production. */
  hideSuggestions: boolean;
  /** Created and logged at start in embedded, non-production runs; undefined otherwise. */
  devToken: { workspaceId: string; userId: string } | undefined;
  production: boolean;
}

/** `first` of every connection: the page-size limit, fixed so clients can rely on it. */
export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 20;

type ApiConfig = Pick<
  LomoConfig,
  | 'LOMO_MODE'
  | 'NODE_ENV'
  | 'LOMO_AUTH_SQLITE_PATH'
  | 'LOMO_API_MAX_BODY_BYTES'
  | 'LOMO_API_MAX_BATCH'
  | 'LOMO_MEDIA_MAX_BYTES'
  | 'LOMO_API_MAX_DEPTH'
  | 'LOMO_API_MAX_COST'
  | 'LOMO_API_RATE_LIMIT_BURST'
  | 'LOMO_API_RATE_LIMIT_PER_SECOND'
  | 'LOMO_API_MAX_ALIASES'
  | 'LOMO_API_MAX_DIRECTIVES'
  | 'LOMO_API_MAX_TOKENS'
  | 'LOMO_API_IP_RATE_LIMIT_BURST'
  | 'LOMO_API_IP_RATE_LIMIT_PER_SECOND'
  | 'LOMO_API_TRUST_PROXY'
  | 'LOMO_API_INTROSPECTION'
  | 'LOMO_DEBUG_ERRORS'
  | 'LOMO_API_CONSISTENCY_TIMEOUT_MS'
  | 'LOMO_API_WS_MAX_SUBSCRIPTIONS_PER_TOKEN'
  | 'LOMO_API_DEV_WORKSPACE'
  | 'LOMO_API_DEV_USER'
>;

/** The API's settings, from the validated configuration (libs/config owns the variables). */
export function apiSettings(config: ApiConfig): ApiSettings {
  const production = config.NODE_ENV === 'production';
  return {
    authSqlitePath: config.LOMO_AUTH_SQLITE_PATH,
    maxBodyBytes: config.LOMO_API_MAX_BODY_BYTES,
    maxBatch: config.LOMO_API_MAX_BATCH,
    mediaMaxBytes: config.LOMO_MEDIA_MAX_BYTES,
    maxDepth: config.LOMO_API_MAX_DEPTH,
    maxCost: config.LOMO_API_MAX_COST,
    maxAliases: config.LOMO_API_MAX_ALIASES,
    maxDirectives: config.LOMO_API_MAX_DIRECTIVES,
    maxTokens: config.LOMO_API_MAX_TOKENS,
    rateLimit: { burst: config.LOMO_API_RATE_LIMIT_BURST, perSecond: config.LOMO_API_RATE_LIMIT_PER_SECOND },
    ipRateLimit: { burst: config.LOMO_API_IP_RATE_LIMIT_BURST, perSecond: config.LOMO_API_IP_RATE_LIMIT_PER_SECOND },
    trustProxy: config.LOMO_API_TRUST_PROXY,
    introspection: config.LOMO_API_INTROSPECTION === undefined ? !production : config.LOMO_API_INTROSPECTION === 'true',
    consistencyTimeoutMs: config.LOMO_API_CONSISTENCY_TIMEOUT_MS,
    maxSubscriptionsPerToken: config.LOMO_API_WS_MAX_SUBSCRIPTIONS_PER_TOKEN,
    // An explicit switch, not NODE_ENV: an unset NODE_ENV means development, and a stack trace
    // names the server's files and libraries to whoever sent the request.
    exposeInternals: config.LOMO_DEBUG_ERRORS === 'true',
    hideSuggestions: production,
    devToken:
      config.LOMO_MODE === 'embedded' && !production
        ? { workspaceId: config.LOMO_API_DEV_WORKSPACE, userId: config.LOMO_API_DEV_USER }
        : undefined,
    production,
  };
}
