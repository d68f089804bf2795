import type { NextFunction, Request, Response } from 'express';
import { ApiError, ApiErrorCodes } from '@lomo/contracts';
import { sendGraphqlError } from './graphql-error-response';

interface BodyParserError {
  type?: unknown;
  status?: unknown;
  limit?: unknown;
}

/**
 * Express error handler for /graphql: the JSON body parser runs before any of the API's own
 * middleware, so its refusals (too large, not JSON) are turned into typed GraphQL errors here
 * instead of an HTML page with a stack trace.
 */
export function graphqlBodyErrorHandler(error: unknown, _req: Request, res: Response, next: NextFunction): void {
  const parserError = (typeof error === 'object' && error !== null ? error : {}) as BodyParserError;
  if (parserError.type === 'entity.too.large') {
    const limit = typeof parserError.limit === 'number' ? { maxBytes: parserError.limit } : {};
    sendGraphqlError(
      res,
      new ApiError(ApiErrorCodes.PAYLOAD_TOO_LARGE, 'Request body too large', limit, { httpStatus: 413 }),
    );
    return;
  }
  if (parserError.type === 'entity.parse.failed' || parserError.type === 'encoding.unsupported') {
    sendGraphqlError(res, new ApiError(ApiErrorCodes.BAD_REQUEST, 'Malformed JSON body', {}, { httpStatus: 400 }));
    return;
  }
  next(error);
}
