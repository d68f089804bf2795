import { Inject, Injectable, type NestMiddleware } from '@nestjs/common';
import type { NextFunction, Response } from 'express';
import { LOGGER, type Logger } from '@lomo/observability';
import { API_RATE_LIMITER, API_SETTINGS, API_TOKENS } from '../api-di-tokens';
import type { ApiSettings } from '../api-settings';
import type { ApiTokens } from '@lomo/auth';
import { authenticate } from '@lomo/auth';
import type { AuthenticatedRequest } from '@lomo/auth';
import { ApiError, ApiErrorCodes } from '@lomo/contracts';
import type { TokenBucketRateLimiter } from '../limits/token-bucket';
import { sendGraphqlError } from './graphql-error-response';

/**
 * Everything decided per HTTP request before Apollo sees it, cheapest first: body size, bearer
 * token, batch size, rate limit. A refused request is answered here, so no operation of it runs.
 */
@Injectable()
export class GraphqlGateMiddleware implements NestMiddleware {
  private readonly logger: Logger;

  constructor(
    @Inject(API_SETTINGS) private readonly settings: ApiSettings,
    @Inject(API_TOKENS) private readonly tokens: ApiTokens,
    @Inject(API_RATE_LIMITER) private readonly limiter: TokenBucketRateLimiter,
    @Inject(LOGGER) logger: Logger,
  ) {
    this.logger = logger.child({ component: 'api-gate' });
  }

  async use(req: AuthenticatedRequest, res: Response, next: NextFunction): Promise<void> {
    try {
      this.checkSize(req);
      const caller = await authenticate(req.header('authorization'), this.tokens);
      const operations = this.countOperations(req);
      const decision = this.limiter.take(caller.tokenId, operations);
      if (!decision.allowed) {
        const retryAfterSeconds = Math.max(1, Math.ceil(decision.retryAfterMs / 1000));
        res.setHeader('Retry-After', String(retryAfterSeconds));
        this.logger.info({ tokenId: caller.tokenId, workspaceId: caller.workspaceId, operations }, 'rate limited');
        throw new ApiError(
          ApiErrorCodes.RATE_LIMITED,
          `Too many requests for this token; retry in ${retryAfterSeconds} s`,
          { retryAfterSeconds },
          { retriable: true, httpStatus: 429 },
        );
      }
      req.lomoCaller = caller;
      next();
    } catch (error) {
      if (error instanceof ApiError && error.httpStatus !== undefined) {
        if (error.code === ApiErrorCodes.UNAUTHENTICATED) res.setHeader('WWW-Authenticate', 'Bearer');
        sendGraphqlError(res, error);
        return;
      }
      next(error);
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
