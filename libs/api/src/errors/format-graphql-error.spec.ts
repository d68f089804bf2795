import { GraphQLError } from 'graphql';
import { ConcurrencyError, ApiError, ApiErrorCodes } from '@lomo/contracts';
import { DomainError } from '@lomo/domain';
import type { Logger } from '@lomo/observability';
import { formatGraphqlError } from './format-graphql-error';

function recordingLogger() {
  const lines: Array<{ level: string; context: Record<string, unknown>; message: string }> = [];
  const at =
    (level: string) =>
    (context: Record<string, unknown>, message: string): void => {
      lines.push({ level, context, message });
    };
  const logger: Logger = {
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    child: () => logger,
  };
  return { logger, lines };
}

const wrapped = (original: Error) => new GraphQLError(original.message, { originalError: original, path: ['task'] });
const formatted = (error: GraphQLError) => ({
  message: error.message,
  path: ['task'],
  extensions: { code: 'INTERNAL_SERVER_ERROR', stacktrace: ['at somewhere'] },
});

describe('formatGraphqlError', () => {
  it('keeps the code, message and client details of a typed API error', () => {
    const { logger } = recordingLogger();
    const error = wrapped(
      new ApiError(ApiErrorCodes.RATE_LIMITED, 'slow down', { retryAfterSeconds: 2 }, { retriable: true }),
    );
    expect(formatGraphqlError(formatted(error), error, { exposeInternals: false, logger })).toEqual({
      message: 'slow down',
      path: ['task'],
      extensions: { code: 'RATE_LIMITED', retryAfterSeconds: 2, retriable: true },
    });
  });

  it('passes domain refusal codes through, and shows a domain not-found as NOT_FOUND', () => {
    const { logger } = recordingLogger();
    const claimed = wrapped(new DomainError('INBOX_ITEM_CLAIMED', 'claimed by turn t step 1'));
    const missing = wrapped(new DomainError('TASK_NOT_FOUND', 'No task x'));
    expect(formatGraphqlError(formatted(claimed), claimed, { exposeInternals: false, logger }).extensions?.code).toBe(
      'INBOX_ITEM_CLAIMED',
    );
    expect(formatGraphqlError(formatted(missing), missing, { exposeInternals: false, logger }).extensions?.code).toBe(
      'NOT_FOUND',
    );
  });

  it('keeps the code of a port error but not its internal details', () => {
    const { logger } = recordingLogger();
    const error = wrapped(new ConcurrencyError('task-1', 3, 4));
    expect(formatGraphqlError(formatted(error), error, { exposeInternals: false, logger }).extensions).toEqual({
      code: 'CONCURRENCY_CONFLICT',
      retriable: false,
    });
  });

  it('hides an unexpected error outside development and logs it with its stack', () => {
    const { logger, lines } = recordingLogger();
    const error = wrapped(new TypeError('cannot read x of undefined'));
    expect(formatGraphqlError(formatted(error), error, { exposeInternals: false, logger })).toEqual({
      message: 'Internal server error',
      path: ['task'],
      extensions: { code: 'INTERNAL_SERVER_ERROR' },
    });
    expect(lines).toEqual([
      expect.objectContaining({ level: 'error', context: expect.objectContaining({ path: 'task' }) }),
    ]);
    expect(String(lines[0].context.error)).toContain('TypeError: cannot read x of undefined');
  });

  it('keeps a stack trace only when asked to (LOMO_DEBUG_ERRORS=true)', () => {
    const { logger } = recordingLogger();
    const error = wrapped(new ApiError(ApiErrorCodes.NOT_FOUND, 'No task x'));
    const dev = formatGraphqlError(formatted(error), error, { exposeInternals: true, logger });
    const prod = formatGraphqlError(formatted(error), error, { exposeInternals: false, logger });
    expect(dev.extensions?.stacktrace).toEqual(expect.any(Array));
    expect(prod.extensions?.stacktrace).toBeUndefined();
  });

  it('drops "Did you mean" hints when hiding suggestions, from request errors too, and keeps the code', () => {
    const { logger } = recordingLogger();
    const message =
      'Variable "$s" got invalid value "FROZN"; Value "FROZN" does not exist in "TaskStatus" enum. Did you mean the enum value "FROZEN"?';
    const error = new GraphQLError(message, { extensions: { code: 'BAD_USER_INPUT' } });
    const input = { message, extensions: { code: 'BAD_USER_INPUT' } };
    const hidden = formatGraphqlError(input, error, { exposeInternals: false, hideSuggestions: true, logger });
    expect(hidden).toEqual({
      message: 'Variable "$s" got invalid value "FROZN"; Value "FROZN" does not exist in "TaskStatus" enum.',
      extensions: { code: 'BAD_USER_INPUT' },
    });
    expect(formatGraphqlError(input, error, { exposeInternals: false, logger }).message).toBe(message);
  });
});
