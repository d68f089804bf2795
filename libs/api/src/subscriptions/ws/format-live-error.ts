import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { formatGraphqlError, type FormatErrorOptions } from '../../errors/format-graphql-error';
import { LiveError } from '../live-errors';

/**
 * The HTTP API's error shape for graphql-ws `next` and `error` messages: a stable
 * `extensions.code`, internals hidden unless LOMO_DEBUG_ERRORS=true, no suggestions in production. The live API's own codes keep their
 * details (the shared formatter passes details only for the codes it knows).
 */
export function formatLiveError(error: GraphQLError, options: FormatErrorOptions): GraphQLFormattedError {
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
