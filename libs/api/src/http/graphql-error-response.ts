import type { Response } from 'express';
import type { ApiError } from '@lomo/contracts';

/**
 * A refusal made before GraphQL runs, in the GraphQL response shape so clients read every error
 * the same way: `{ errors: [{ message, extensions: { code, ... } }] }`.
 */
export function sendGraphqlError(res: Response, error: ApiError): void {
  res
    .status(error.httpStatus ?? 400)
    .type('application/json')
    .send(JSON.stringify({ errors: [{ message: error.message, extensions: { ...error.details, code: error.code } }] }));
}
