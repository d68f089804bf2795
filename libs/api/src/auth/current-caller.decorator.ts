import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { GqlExecutionContext } from '@nestjs/graphql';
import { ApiError, ApiErrorCodes } from '@lomo/contracts';
import type { ApiContext, Caller } from '@lomo/auth';

/** The authenticated caller of this GraphQL request (the gate refuses requests without one). */
export const CurrentCaller = createParamDecorator((_data: unknown, context: ExecutionContext): Caller => {
  const caller = GqlExecutionContext.create(context).getContext<Partial<ApiContext>>().caller;
  if (caller === undefined) throw new ApiError(ApiErrorCodes.UNAUTHENTICATED, 'Not authenticated');
  return caller;
});
