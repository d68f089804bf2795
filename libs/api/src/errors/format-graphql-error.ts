import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { isLomoError, type LomoError, ApiError, ApiErrorCodes } from '@lomo/contracts';
import { DomainError, MainLineErrors, MemoryErrors, TaskErrors } from '@lomo/domain';
import type { Logger } from '@lomo/observability';
import { ArtifactRefusedError } from '@lomo/workspace';

/** Refusals whose `details` are meant for the client (the rest may name internals). */
const CLIENT_DETAIL_CODES = new Set<string>([
  ...Object.values(ApiErrorCodes).filter((c) => c !== ApiErrorCodes.INTERNAL_SERVER_ERROR),
]);

/** Domain "no such thing" refusals look like any other not-found: ids of another workspace too. */
const NOT_FOUND_CODES = new Set<string>([
  TaskErrors.TASK_NOT_FOUND,
  TaskErrors.INBOX_ITEM_NOT_FOUND,
  TaskErrors.CHECKPOINT_NOT_FOUND,
  // Another person's card or message is not on the caller's main line: the same as none at all.
  MainLineErrors.MESSAGE_NOT_FOUND,
  MainLineErrors.CARD_NOT_FOUND,
  'WEBHOOK_NOT_FOUND',
  'DEAD_LETTER_NOT_FOUND',
  // An artefact of another workspace reads as one that does not exist.
  'ARTIFACT_NOT_FOUND',
  // Memory is read and changed on the caller's own stream only: unknown ids are just not found.
  MemoryErrors.MEMORY_NOT_FOUND,
  MemoryErrors.FORGETTING_NOT_FOUND,
  MemoryErrors.EVIDENCE_UNKNOWN,
]);

/**
 * What a refused artefact write tells the client, so the person's editor can re-read and offer
 * a merge: the current version and what changed since the base. Ids and versions only, no text.
 */
function refusalDetails(error: ArtifactRefusedError): Record<string, unknown> {
  const { artifactId, currentVersion, changedNodes, failedEdits, currentStructureVersion } = error.details;
  return {
    artifactId,
    ...(currentVersion !== undefined ? { currentVersion } : {}),
    ...(changedNodes !== undefined ? { changedNodes } : {}),
    ...(failedEdits !== undefined ? { failedEdits } : {}),
    ...(currentStructureVersion !== undefined ? { currentStructureVersion } : {}),
  };
}

/** Codes graphql-js and Apollo give requests they refuse before execution; kept as they are. */
const REQUEST_ERROR_CODES = new Set([
  'GRAPHQL_PARSE_FAILED',
  'GRAPHQL_VALIDATION_FAILED',
  'BAD_USER_INPUT',
  'BAD_REQUEST',
  'OPERATION_RESOLUTION_FAILURE',
  'PERSISTED_QUERY_NOT_FOUND',
  'PERSISTED_QUERY_NOT_SUPPORTED',
]);

export interface FormatErrorOptions {
  /** LOMO_DEBUG_ERRORS=true only: stack traces and internal messages reach the client. */
  exposeInternals: boolean;
  /**
   * Production: drop graphql-js's "Did you mean …?" hints, which name fields, types and enum
   * values. Apollo's hideSchemaDetailsFromClientErrors strips them from validation errors only;
   * variable coercion (BAD_USER_INPUT) and graphql-ws validation carry them too.
   */
  hideSuggestions?: boolean;
  logger: Logger;
}

/** graphql-js's suggestion suffix (graphql/jsutils/didYouMean.js), as Apollo's DisableSuggestions plugin matches it. */
const SUGGESTION = / ?Did you mean(.+?)\?$/;

function originalOf(error: unknown): unknown {
  return error instanceof GraphQLError && error.originalError !== undefined ? error.originalError : error;
}

function typed(formatted: GraphQLFormattedError, error: LomoError | DomainError, expose: boolean) {
  const code = NOT_FOUND_CODES.has(error.code) ? ApiErrorCodes.NOT_FOUND : error.code;
  const details =
    isLomoError(error) && CLIENT_DETAIL_CODES.has(error.code)
      ? error.details
      : error instanceof ArtifactRefusedError && code !== ApiErrorCodes.NOT_FOUND
        ? refusalDetails(error)
        : {};
  const stack = expose && error.stack ? { stacktrace: error.stack.split('\n') } : {};
  return {
    message: error.message,
    ...(formatted.locations ? { locations: formatted.locations } : {}),
    ...(formatted.path ? { path: formatted.path } : {}),
    extensions: { ...details, code, retriable: error.retriable, ...stack },
  };
}

/**
 * Apollo's formatError: every error leaves with a stable `extensions.code`. Typed errors (the
 * API's, the domain's, the ports') keep their message and code; anything else is an internal
 * error whose message and stack are logged and, outside development, never sent.
 */
export function formatGraphqlError(
  formatted: GraphQLFormattedError,
  error: unknown,
  options: FormatErrorOptions,
): GraphQLFormattedError {
  const result = formatOne(formatted, error, options);
  return options.hideSuggestions === true && SUGGESTION.test(result.message)
    ? { ...result, message: result.message.replace(SUGGESTION, '') }
    : result;
}

function formatOne(
  formatted: GraphQLFormattedError,
  error: unknown,
  options: FormatErrorOptions,
): GraphQLFormattedError {
  const original = originalOf(error);
  if (original instanceof ApiError || original instanceof DomainError || isLomoError(original)) {
    options.logger.debug(
      { code: original.code, path: formatted.path?.join('.') ?? null, message: original.message },
      'request refused',
    );
    return typed(formatted, original, options.exposeInternals);
  }
  const code = formatted.extensions?.code;
  if (typeof code === 'string' && (REQUEST_ERROR_CODES.has(code) || CLIENT_DETAIL_CODES.has(code))) {
    const { stacktrace: _stack, ...extensions } = formatted.extensions ?? {};
    return options.exposeInternals ? formatted : { ...formatted, extensions: { ...extensions, code } };
  }
  options.logger.error(
    {
      path: formatted.path?.join('.') ?? null,
      error: original instanceof Error ? (original.stack ?? original.message) : String(original),
    },
    'graphql request failed',
  );
  if (options.exposeInternals) {
    return { ...formatted, extensions: { ...formatted.extensions, code: ApiErrorCodes.INTERNAL_SERVER_ERROR } };
  }
  return {
    message: 'Internal server error',
    ...(formatted.path ? { path: formatted.path } : {}),
    extensions: { code: ApiErrorCodes.INTERNAL_SERVER_ERROR },
  };
}
