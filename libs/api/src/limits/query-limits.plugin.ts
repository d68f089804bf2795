import type { ApolloServerPlugin } from '@apollo/server';
import { GraphQLError, Kind, type FragmentDefinitionNode } from 'graphql';
import type { Logger } from '@lomo/observability';
import { shapeRefusal, type OperationLimits } from './operation-limits';
import { measureQuery } from './query-shape';

export type QueryLimits = OperationLimits;

/**
 * Refuses an operation whose shape breaks a limit (depth, introspection depth, cost, aliases,
 * directives: `shapeRefusal`) after it is parsed and validated and before any resolver runs, so
 * a refused operation reads nothing and writes nothing. The document-level counts (tokens, and
 * aliases and directives as written) were checked before parsing by the gate middleware.
 */
export function queryLimitsPlugin(limits: QueryLimits, logger: Logger): ApolloServerPlugin {
  return {
    requestDidStart() {
      return Promise.resolve({
        didResolveOperation({ document, operation, schema, request }) {
          if (operation === undefined) return Promise.resolve();
          const fragments = new Map<string, FragmentDefinitionNode>();
          for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
          const shape = measureQuery(schema, operation, fragments, request.variables ?? {}, limits);
          const refusal = shapeRefusal(shape, limits);
          if (refusal !== undefined) {
            logger.info({ code: refusal.code, ...refusal.details }, 'query refused');
            throw new GraphQLError(refusal.message, {
              extensions: { code: refusal.code, ...refusal.details, http: { status: 400 } },
            });
          }
          return Promise.resolve();
        },
      });
    },
  };
}
