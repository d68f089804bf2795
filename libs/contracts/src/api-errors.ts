import { LomoError } from './errors';

/** Codes the API answers with in `extensions.code`; domain refusals pass their own code through. */
export const ApiErrorCodes = {
  UNAUTHENTICATED: 'UNAUTHENTICATED',
  FORBIDDEN: 'FORBIDDEN',
  NOT_FOUND: 'NOT_FOUND',
  VALIDATION_FAILED: 'VALIDATION_FAILED',
  RATE_LIMITED: 'RATE_LIMITED',
  QUERY_TOO_DEEP: 'QUERY_TOO_DEEP',
  QUERY_TOO_COSTLY: 'QUERY_TOO_COSTLY',
  TOO_MANY_ALIASES: 'TOO_MANY_ALIASES',
  TOO_MANY_DIRECTIVES: 'TOO_MANY_DIRECTIVES',
  TOO_MANY_TOKENS: 'TOO_MANY_TOKENS',
  BATCH_TOO_LARGE: 'BATCH_TOO_LARGE',
  PAYLOAD_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  /** A media upload of a content type the API does not store (415). */
  UNSUPPORTED_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  /** The app runs without the shared workspace bound: artefact operations cannot be served. */
  WORKSPACE_UNAVAILABLE: 'WORKSPACE_UNAVAILABLE',
  /** This process runs no memory worker (distributed: the executor app does): ask that one. */
  MEMORY_UNAVAILABLE: 'MEMORY_UNAVAILABLE',
  BAD_REQUEST: 'BAD_REQUEST',
  INVALID_CONSISTENCY_TOKEN: 'INVALID_CONSISTENCY_TOKEN',
  CONSISTENCY_TIMEOUT: 'CONSISTENCY_TIMEOUT',
  MESSAGE_NOT_DELIVERED: 'MESSAGE_NOT_DELIVERED',
  INTERNAL_SERVER_ERROR: 'INTERNAL_SERVER_ERROR',
} as const;

export type ApiErrorCode = (typeof ApiErrorCodes)[keyof typeof ApiErrorCodes];

/** A refusal the API itself makes; `details` go to the client in `extensions`. */
export class ApiError extends LomoError {
  readonly retriable: boolean;
  /** Status for refusals answered before GraphQL runs (auth, limits); undefined inside execution. */
  readonly httpStatus: number | undefined;

  constructor(
    readonly code: ApiErrorCode,
    message: string,
    details: Record<string, unknown> = {},
    options: { retriable?: boolean; httpStatus?: number } = {},
  ) {
    super(message, details);
    this.retriable = options.retriable ?? false;
    this.httpStatus = options.httpStatus;
  }
}

export const notFound = (what: string, id: string) =>
  new ApiError(ApiErrorCodes.NOT_FOUND, `No ${what} ${id}`, { [`${what}Id`]: id });

export const validationFailed = (issues: ReadonlyArray<{ path: string; message: string }>) =>
  new ApiError(
    ApiErrorCodes.VALIDATION_FAILED,
    `Invalid input: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`,
    { issues },
  );
