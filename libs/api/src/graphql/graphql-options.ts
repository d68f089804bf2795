import type { ApolloDriverConfig } from '@nestjs/apollo';
import type { Logger } from '@lomo/observability';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, type ApiSettings } from '../api-settings';
import type { ApiContext, AuthenticatedRequest } from '@lomo/auth';
import { formatGraphqlError } from '../errors/format-graphql-error';
import { noSubscriptionsOverHttpPlugin } from '../http/no-subscriptions-over-http.plugin';
import { queryLimitsPlugin } from '../limits/query-limits.plugin';

export const GRAPHQL_PATH = '/graphql';

/** Apollo as the API runs it: limits, error shape, batching and introspection from the settings. */
export function graphqlOptions(settings: ApiSettings, logger: Logger): Omit<ApolloDriverConfig, 'driver'> {
  const log = logger.child({ component: 'graphql' });
  return {
    path: GRAPHQL_PATH,
    autoSchemaFile: true,
    sortSchema: true,
    playground: false,
    introspection: settings.introspection,
    // "Did you mean ...?" hints name fields and types; production keeps the schema to itself.
    // Apollo's switch strips them from validation messages; graphql-js's own option keeps them out
    // of those messages from the start, and formatGraphqlError strips the rest (variable coercion).
    hideSchemaDetailsFromClientErrors: settings.hideSuggestions,
    validationOptions: { hideSuggestions: settings.hideSuggestions },
    // A backstop: the gate middleware refuses such a document with TOO_MANY_TOKENS before this.
    parseOptions: { maxTokens: settings.maxTokens },
    includeStacktraceInErrorResponses: settings.exposeInternals,
    // Batches are allowed, and capped by the gate middleware before Apollo sees them.
    allowBatchedHttpRequests: true,
    csrfPrevention: true,
    stopOnTerminationSignals: false,
    context: ({ req }: { req: AuthenticatedRequest }): Partial<ApiContext> =>
      req.lomoCaller === undefined ? {} : { caller: req.lomoCaller },
    formatError: (formatted, error) =>
      formatGraphqlError(formatted, error, {
        exposeInternals: settings.exposeInternals,
        hideSuggestions: settings.hideSuggestions,
        logger: log,
      }),
    plugins: [
      noSubscriptionsOverHttpPlugin(),
      queryLimitsPlugin(
        {
          maxDepth: settings.maxDepth,
          maxCost: settings.maxCost,
          maxAliases: settings.maxAliases,
          maxDirectives: settings.maxDirectives,
          defaultPageSize: DEFAULT_PAGE_SIZE,
          maxPageSize: MAX_PAGE_SIZE,
        },
        log,
      ),
    ],
  };
}
