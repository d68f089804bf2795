import type { ApolloServerPlugin } from '@apollo/server';
import { GraphQLError, Kind, type FragmentDefinitionNode } from 'graphql';
import type { Logger } from '@lomo/observability';
import { ApiErrorCodes } from '@lomo/contracts';
import { measureQuery, type MeasureOptions } from './query-shape';

export interface QueryLimits extends MeasureOptions {
  maxDepth: number;
  maxCost: number;
}

const refuse = (code: string, message: string, details: Record<string, number>) =>
  new GraphQLError(message, { extensions: { code, ...details, http: { status: 400 } } });

/**
 * Refuses a too-deep or too-costly operation after it is parsed and validated and before any
 * resolver runs, so a refused operation reads nothing and writes nothing.
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
          if (shape.depth > limits.maxDepth) {
            logger.info({ depth: shape.depth, maxDepth: limits.maxDepth }, 'query refused: too deep');
            throw refuse(ApiErrorCodes.QUERY_TOO_DEEP, `Query depth ${shape.depth} exceeds ${limits.maxDepth}`, {
              depth: shape.depth,
              maxDepth: limits.maxDepth,
            });
          }
          if (shape.cost > limits.maxCost) {
            logger.info({ cost: shape.cost, maxCost: limits.maxCost }, 'query refused: too costly');
            throw refuse(ApiErrorCodes.QUERY_TOO_COSTLY, `Query cost ${shape.cost} exceeds ${limits.maxCost}`, {
              cost: shape.cost,
              maxCost: limits.maxCost,
            });
          }
          return Promise.resolve();
        },
      });
    },
  };
}
