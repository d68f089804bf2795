import { LomoError } from '@lomo/contracts';

/** Refusals only the live API makes; the rest reuse ApiErrorCodes. */
export const LiveErrorCodes = {
  SUBSCRIPTION_LIMIT: 'SUBSCRIPTION_LIMIT',
  SLOW_CONSUMER: 'SLOW_CONSUMER',
} as const;

export type LiveErrorCode = (typeof LiveErrorCodes)[keyof typeof LiveErrorCodes];

export class LiveError extends LomoError {
  constructor(
    readonly code: LiveErrorCode,
    message: string,
    details: Record<string, unknown>,
    readonly retriable: boolean,
  ) {
    super(message, details);
  }
}

/**
 * WebSocket close codes of the live API, in the 4000-4999 application range. 4401 is graphql-ws's
 * own "Unauthorized" (its client does not retry it); 4008 mirrors 1008 "policy violation" and is
 * retried by the client, which then resumes (feeds from their last cursor).
 */
export const LiveCloseCodes = {
  UNAUTHENTICATED: 4401,
  SLOW_CONSUMER: 4008,
} as const;

/** A close reason: `<CODE>: <message>`, cut to the 123 bytes a close frame allows. */
export function closeReason(code: string, message: string): string {
  let reason = `${code}: ${message}`;
  while (Buffer.byteLength(reason) > 123) reason = reason.slice(0, -1);
  return reason;
}

export const slowConsumer = (details: Record<string, unknown>) =>
  new LiveError(
    LiveErrorCodes.SLOW_CONSUMER,
    'The subscriber did not keep up; resubscribe (a feed resumes from its last cursor)',
    details,
    true,
  );
