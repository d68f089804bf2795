import {
  GraphQLError,
  Kind,
  getOperationAST,
  parse,
  specifiedRules,
  validate,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLSchema,
} from 'graphql';
import type { SubscribePayload } from 'graphql-ws';
import { ApiError, ApiErrorCodes } from '@lomo/contracts';
import { documentRefusal, scanDocument } from '../../limits/document-scan';
import { shapeRefusal, type OperationLimits } from '../../limits/operation-limits';
import { measureQuery } from '../../limits/query-shape';

export interface WsOperationLimits extends OperationLimits {
  maxTokens: number;
  /** Production: validation errors name no fields or types ("Did you mean …?"). */
  hideSuggestions: boolean;
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
  limits: WsOperationLimits,
): DocumentNode | GraphQLError[] {
  if (typeof payload.query !== 'string') throw new ApiError(ApiErrorCodes.BAD_REQUEST, 'query must be a string');
  // The same pre-parse pass as the HTTP gate (libs/api/src/http/graphql-gate.middleware.ts).
  const before = documentRefusal(scanDocument(payload.query, limits.maxTokens), limits);
  if (before !== undefined) throw new ApiError(before.code, before.message, before.details);
  let document: DocumentNode;
  try {
    document = parse(payload.query, { maxTokens: limits.maxTokens });
  } catch (error) {
    if (error instanceof GraphQLError) return [asRequestError(error, 'GRAPHQL_PARSE_FAILED')];
    throw error;
  }
  const invalid = validate(schema, document, specifiedRules, { hideSuggestions: limits.hideSuggestions });
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
  const refusal = shapeRefusal(shape, limits);
  if (refusal !== undefined) throw new ApiError(refusal.code, refusal.message, refusal.details);
  return document;
}
