import {
  GraphQLError,
  Kind,
  getOperationAST,
  parse,
  validate,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLSchema,
} from 'graphql';
import type { SubscribePayload } from 'graphql-ws';
import { ApiError, ApiErrorCodes } from '@lomo/contracts';
import { measureQuery, type MeasureOptions } from '../../limits/query-shape';

export interface OperationLimits extends MeasureOptions {
  maxDepth: number;
  maxCost: number;
}

const asRequestError = (error: GraphQLError, code: string) =>
  new GraphQLError(error.message, {
    ...(error.nodes ? { nodes: error.nodes } : {}),
    ...(error.source ? { source: error.source, positions: error.positions } : {}),
    extensions: { code },
  });

/**
 * What HTTP gets from Apollo and its limits plugin, for an operation arriving over graphql-ws:
 * parsed, validated, and measured before anything runs. Only subscriptions: queries and
 * mutations go over HTTP, where the gate and the rate limits per request apply.
 */
export function checkOperation(
  schema: GraphQLSchema,
  payload: SubscribePayload,
  limits: OperationLimits,
): DocumentNode | GraphQLError[] {
  let document: DocumentNode;
  try {
    document = parse(payload.query);
  } catch (error) {
    if (error instanceof GraphQLError) return [asRequestError(error, 'GRAPHQL_PARSE_FAILED')];
    throw error;
  }
  const invalid = validate(schema, document);
  if (invalid.length > 0) return invalid.map((e) => asRequestError(e, 'GRAPHQL_VALIDATION_FAILED'));
  const operation = getOperationAST(document, payload.operationName);
  if (!operation) {
    throw new ApiError(ApiErrorCodes.BAD_REQUEST, 'Name the operation to run (operationName)');
  }
  if (operation.operation !== 'subscription') {
    throw new ApiError(
      ApiErrorCodes.BAD_REQUEST,
      `Only subscriptions run over WebSocket; send the ${operation.operation} to POST /graphql`,
      { operation: operation.operation },
    );
  }
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const shape = measureQuery(schema, operation, fragments, payload.variables ?? {}, limits);
  if (shape.depth > limits.maxDepth) {
    throw new ApiError(ApiErrorCodes.QUERY_TOO_DEEP, `Query depth ${shape.depth} exceeds ${limits.maxDepth}`, {
      depth: shape.depth,
      maxDepth: limits.maxDepth,
    });
  }
  if (shape.cost > limits.maxCost) {
    throw new ApiError(ApiErrorCodes.QUERY_TOO_COSTLY, `Query cost ${shape.cost} exceeds ${limits.maxCost}`, {
      cost: shape.cost,
      maxCost: limits.maxCost,
    });
  }
  return document;
}
