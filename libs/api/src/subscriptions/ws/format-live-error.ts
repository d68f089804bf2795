import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import type { Logger } from '@lomo/observability';
import { formatGraphqlError } from '../../errors/format-graphql-error';
import { LiveError } from '../live-errors';

/**
 * The HTTP API's error shape for graphql-ws `next` and `error` messages: a stable
 * `extensions.code`, internals hidden outside development. The live API's own codes keep their
 * details (the shared formatter passes details only for the codes it knows).
 */
export function formatLiveError(
  error: GraphQLError,
  options: { exposeInternals: boolean; logger: Logger },
): GraphQLFormattedError {
  const formatted = formatGraphqlError(error.toJSON(), error, options);
  const original = error.originalError;
  if (original instanceof LiveError) {
    return { ...formatted, extensions: { ...original.details, ...formatted.extensions } };
  }
  return formatted;
}

/** An error thrown before execution, as graphql-ws expects it (formatted later by `formatLiveError`). */
export const asGraphqlError = (error: unknown): GraphQLError =>
  error instanceof GraphQLError
    ? error
    : new GraphQLError(error instanceof Error ? error.message : String(error), {
        originalError: error instanceof Error ? error : undefined,
      });
