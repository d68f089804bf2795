import type { Caller } from '@lomo/auth';
import { ApiError, ApiErrorCodes, notFound } from '@lomo/contracts';
import {
  OperatorRoleRequiredError,
  UnknownStreamError,
  UnknownTargetError,
  WorkspaceForbiddenError,
} from '@lomo/operator';

export const OPERATORS_ONLY =
  'Only an operator token inspects tasks (a person reads their own workspace through `tasks`)';

/** The operator queries refuse any other token before anything is read. */
export function requireOperator(caller: Caller): void {
  if (caller.kind !== 'operator') throw new ApiError(ApiErrorCodes.FORBIDDEN, OPERATORS_ONLY);
}

/**
 * @lomo/operator's typed refusals as the API's codes: an unknown target is NOT_FOUND, a reader
 * who may not read is FORBIDDEN; any other OperatorInputError (STEP_BEYOND_TURN,
 * BAD_PROMPT_PATCH, ...) keeps its own stable code, which the error formatter passes through.
 */
export const refusal =
  (what: string, id: string) =>
  (error: unknown): never => {
    if (error instanceof UnknownTargetError || error instanceof UnknownStreamError) throw notFound(what, id);
    if (error instanceof WorkspaceForbiddenError || error instanceof OperatorRoleRequiredError)
      throw new ApiError(ApiErrorCodes.FORBIDDEN, OPERATORS_ONLY);
    throw error;
  };
