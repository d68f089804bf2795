import type { NextFunction, Request, Response } from 'express';
import { ApiError, ApiErrorCodes } from '@lomo/contracts';
import type { Logger } from '@lomo/observability';
import { sendGraphqlError } from './graphql-error-response';

interface BodyParserError {
  type?: unknown;
  status?: unknown;
  limit?: unknown;
}

/**
 * Express error handler for /graphql: the JSON body parser runs before any of the API's own
 * middleware, so its refusals are turned into typed GraphQL errors here instead of Express's
 * HTML page (which carries a stack trace whenever NODE_ENV is not `production`). body-parser
 * (node_modules/body-parser/lib/read.js) marks each refusal with a `type` and a 4xx `status`:
 * too large, not JSON, an unsupported charset or encoding, an aborted or miscounted body.
 */
export function graphqlBodyErrorHandler(logger: Logger) {
  return (error: unknown, req: Request, res: Response, next: NextFunction): void => {
    if (res.headersSent) {
      next(error);
      return;
    }
    const parserError = (typeof error === 'object' && error !== null ? error : {}) as BodyParserError;
    if (parserError.type === 'entity.too.large') {
      const limit = typeof parserError.limit === 'number' ? { maxBytes: parserError.limit } : {};
      sendGraphqlError(
        res,
        new ApiError(ApiErrorCodes.PAYLOAD_TOO_LARGE, 'Request body too large', limit, { httpStatus: 413 }),
      );
      return;
    }
    if (parserError.type === 'entity.parse.failed') {
      sendGraphqlError(res, new ApiError(ApiErrorCodes.BAD_REQUEST, 'Malformed JSON body', {}, { httpStatus: 400 }));
      return;
    }
    const status = typeof parserError.status === 'number' ? parserError.status : undefined;
    if (typeof parserError.type === 'string' && status !== undefined && status >= 400 && status < 500) {
      sendGraphqlError(
        res,
        new ApiError(
          ApiErrorCodes.BAD_REQUEST,
          `Unreadable request body (${parserError.type})`,
          {},
          { httpStatus: status },
        ),
      );
      return;
    }
    logger.error(
      { path: req.path, error: error instanceof Error ? (error.stack ?? error.message) : String(error) },
      'graphql request failed before the API saw it',
    );
    sendGraphqlError(
      res,
      new ApiError(ApiErrorCodes.INTERNAL_SERVER_ERROR, 'Internal server error', {}, { httpStatus: 500 }),
    );
  };
}
