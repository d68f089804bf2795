import { Inject, Injectable, type NestMiddleware } from '@nestjs/common';
import type { NextFunction, Response } from 'express';
import { LOGGER, type Logger } from '@lomo/observability';
import { API_IP_RATE_LIMITER, API_RATE_LIMITER, API_SETTINGS, API_TOKENS } from '../api-di-tokens';
import type { ApiSettings } from '../api-settings';
import { type ApiTokens, authenticate, type AuthenticatedRequest } from '@lomo/auth';
import { ApiError, ApiErrorCodes } from '@lomo/contracts';
import { documentRefusal, scanDocument } from '../limits/document-scan';
import type { RateDecision, TokenBucketRateLimiter } from '../limits/token-bucket';
import { sendGraphqlError } from './graphql-error-response';

/**
 * Everything decided per HTTP request before Apollo sees it, cheapest first: body size, the
 * client address's rate limit (before authentication, so a flood of bad tokens is limited too),
 * batch size, each document's tokens, aliases and directives (a lexer pass, before parsing),
 * bearer token, the token's rate limit. A refused request is answered here, so no operation of it
 * runs.
 */
@Injectable()
export class GraphqlGateMiddleware implements NestMiddleware {
  private readonly logger: Logger;

  constructor(
    @Inject(API_SETTINGS) private readonly settings: ApiSettings,
    @Inject(API_TOKENS) private readonly tokens: ApiTokens,
    @Inject(API_RATE_LIMITER) private readonly limiter: TokenBucketRateLimiter,
    @Inject(API_IP_RATE_LIMITER) private readonly ipLimiter: TokenBucketRateLimiter,
    @Inject(LOGGER) logger: Logger,
  ) {
    this.logger = logger.child({ component: 'api-gate' });
  }

  async use(req: AuthenticatedRequest, res: Response, next: NextFunction): Promise<void> {
    try {
      this.checkSize(req);
      // Express's req.ip: the socket's peer address unless LOMO_API_TRUST_PROXY is set.
      const address = req.ip ?? req.socket.remoteAddress ?? 'unknown';
      const byAddress = this.ipLimiter.take(address, 1);
      if (!byAddress.allowed) {
        this.logger.info({ address }, 'rate limited by client address');
        throw rateLimited(res, byAddress, 'address');
      }
      const operations = this.countOperations(req);
      this.checkDocuments(req);
      const caller = await authenticate(req.header('authorization'), this.tokens);
      const decision = this.limiter.take(caller.tokenId, operations);
      if (!decision.allowed) {
        this.logger.info({ tokenId: caller.tokenId, workspaceId: caller.workspaceId, operations }, 'rate limited');
        throw rateLimited(res, decision, 'token');
      }
      req.lomoCaller = caller;
      next();
    } catch (error) {
      if (error instanceof ApiError && error.httpStatus !== undefined) {
        if (error.code === ApiErrorCodes.UNAUTHENTICATED) res.setHeader('WWW-Authenticate', 'Bearer');
        sendGraphqlError(res, error);
        return;
      }
      // E.g. the token store failing: typed, and its message and stack stay in the log.
      this.logger.error(
        { path: req.path, error: error instanceof Error ? (error.stack ?? error.message) : String(error) },
        'api gate failed',
      );
      sendGraphqlError(
        res,
        new ApiError(ApiErrorCodes.INTERNAL_SERVER_ERROR, 'Internal server error', {}, { httpStatus: 500 }),
      );
    }
  }

  private checkSize(req: AuthenticatedRequest): void {
    const declared = Number(req.header('content-length') ?? '0');
    if (declared > this.settings.maxBodyBytes) {
      throw new ApiError(
        ApiErrorCodes.PAYLOAD_TOO_LARGE,
        `Request body of ${declared} bytes exceeds ${this.settings.maxBodyBytes}`,
        { maxBytes: this.settings.maxBodyBytes },
        { httpStatus: 413 },
      );
    }
  }

  /** Each query text of the request (GET `?query=`, a POST body, or each of a batch), before Apollo parses it. */
  private checkDocuments(req: AuthenticatedRequest): void {
    const body: unknown = req.body;
    const queries: unknown[] = Array.isArray(body)
      ? body.map((o) => (typeof o === 'object' && o !== null ? (o as { query?: unknown }).query : undefined))
      : [typeof body === 'object' && body !== null ? (body as { query?: unknown }).query : undefined, req.query?.query];
    for (const query of queries) {
      if (typeof query !== 'string') continue;
      const refusal = documentRefusal(scanDocument(query, this.settings.maxTokens), this.settings);
      if (refusal === undefined) continue;
      this.logger.info({ code: refusal.code, ...refusal.details }, 'document refused before parsing');
      throw new ApiError(refusal.code, refusal.message, refusal.details, { httpStatus: 400 });
    }
  }

  /** Operations in the request: a batch is a JSON array of them, refused whole when too long. */
  private countOperations(req: AuthenticatedRequest): number {
    const body: unknown = req.body;
    if (!Array.isArray(body)) return 1;
    if (body.length === 0 || body.length > this.settings.maxBatch) {
      throw new ApiError(
        ApiErrorCodes.BATCH_TOO_LARGE,
        `A batch holds 1 to ${this.settings.maxBatch} operations, not ${body.length}; none was run`,
        { operations: body.length, maxOperations: this.settings.maxBatch },
        { httpStatus: 400 },
      );
    }
    return body.length;
  }
}

function rateLimited(res: Response, decision: RateDecision, scope: 'address' | 'token'): ApiError {
  const retryAfterSeconds = Math.max(1, Math.ceil(decision.retryAfterMs / 1000));
  res.setHeader('Retry-After', String(retryAfterSeconds));
  return new ApiError(
    ApiErrorCodes.RATE_LIMITED,
    `Too many requests for this ${scope === 'token' ? 'token' : 'client address'}; retry in ${retryAfterSeconds} s`,
    { retryAfterSeconds, scope },
    { retriable: true, httpStatus: 429 },
  );
}
