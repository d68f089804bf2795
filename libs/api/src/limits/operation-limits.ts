import { ApiErrorCodes, type ApiErrorCode } from '@lomo/contracts';
import type { MeasureOptions, QueryShape } from './query-shape';

export interface OperationLimits extends MeasureOptions {
  maxDepth: number;
  maxCost: number;
  maxAliases: number;
  maxDirectives: number;
}

/**
 * How deep `__schema` / `__type` selections may go when `maxDepth` is lower: graphql-js's own
 * `getIntrospectionQuery()` (what the explorer's GraphiQL sends) nests 15 fields deep through its
 * `TypeRef` fragment, so this keeps the explorer working while a 40-level `ofType` chain is refused.
 */
export const INTROSPECTION_QUERY_DEPTH = 15;

export interface ShapeRefusal {
  code: ApiErrorCode;
  message: string;
  details: Record<string, number>;
}

/** The first limit an operation's static shape breaks, cheapest to explain first; undefined when none. */
export function shapeRefusal(shape: QueryShape, limits: OperationLimits): ShapeRefusal | undefined {
  const maxIntrospectionDepth = Math.max(limits.maxDepth, INTROSPECTION_QUERY_DEPTH);
  if (shape.aliases > limits.maxAliases) {
    return {
      code: ApiErrorCodes.TOO_MANY_ALIASES,
      message: `Operation has ${shape.aliases} aliased fields; at most ${limits.maxAliases} are allowed`,
      details: { aliases: shape.aliases, maxAliases: limits.maxAliases },
    };
  }
  if (shape.directives > limits.maxDirectives) {
    return {
      code: ApiErrorCodes.TOO_MANY_DIRECTIVES,
      message: `Operation has ${shape.directives} directives; at most ${limits.maxDirectives} are allowed`,
      details: { directives: shape.directives, maxDirectives: limits.maxDirectives },
    };
  }
  if (shape.depth > limits.maxDepth) {
    return {
      code: ApiErrorCodes.QUERY_TOO_DEEP,
      message: `Query depth ${shape.depth} exceeds ${limits.maxDepth}`,
      details: { depth: shape.depth, maxDepth: limits.maxDepth },
    };
  }
  if (shape.introspectionDepth > maxIntrospectionDepth) {
    return {
      code: ApiErrorCodes.QUERY_TOO_DEEP,
      message: `Introspection depth ${shape.introspectionDepth} exceeds ${maxIntrospectionDepth}`,
      details: { depth: shape.introspectionDepth, maxDepth: maxIntrospectionDepth },
    };
  }
  if (shape.cost > limits.maxCost) {
    return {
      code: ApiErrorCodes.QUERY_TOO_COSTLY,
      message: `Query cost ${shape.cost} exceeds ${limits.maxCost}`,
      details: { cost: shape.cost, maxCost: limits.maxCost },
    };
  }
  return undefined;
}
