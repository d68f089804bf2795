import {
  getNamedType,
  isObjectType,
  Kind,
  valueFromASTUntyped,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLNamedType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';

export interface QueryShape {
  /** Deepest chain of nested fields (introspection fields are not counted). */
  depth: number;
  /** Fields times the items their enclosing pages may return: see `measureQuery`. */
  cost: number;
}

export interface MeasureOptions {
  /** Used for a paged field whose `first` is absent (and has no default). */
  defaultPageSize: number;
  /** A larger `first` is refused by input validation; the cost counts it at this size. */
  maxPageSize: number;
}

interface Walk {
  schema: GraphQLSchema;
  fragments: ReadonlyMap<string, FragmentDefinitionNode>;
  variables: Readonly<Record<string, unknown>>;
  options: MeasureOptions;
}

/**
 * Static shape of an operation, before anything runs. Cost: each selected field costs 1 per item
 * its parent can hold; a field with a `first` argument multiplies what is below it by that page
 * size. So `tasks(first: 100) { edges { node { turns(first: 100) { ... } } } }` counts inner
 * fields 10 000 times. Fragments are expanded (validation has already refused cycles).
 */
export function measureQuery(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
  variables: Readonly<Record<string, unknown>>,
  options: MeasureOptions,
): QueryShape {
  const root =
    operation.operation === 'query'
      ? schema.getQueryType()
      : operation.operation === 'mutation'
        ? schema.getMutationType()
        : schema.getSubscriptionType();
  if (!root) return { depth: 0, cost: 0 };
  return walk({ schema, fragments, variables, options }, operation.selectionSet, root, 1, 1);
}

function walk(
  w: Walk,
  selections: SelectionSetNode,
  type: GraphQLNamedType,
  level: number,
  multiplier: number,
): QueryShape {
  let depth = 0;
  let cost = 0;
  for (const selection of selections.selections) {
    let inner: QueryShape;
    if (selection.kind === Kind.FIELD) {
      if (selection.name.value.startsWith('__')) continue;
      inner = field(w, selection, type, level, multiplier);
    } else {
      const fragment = selection.kind === Kind.INLINE_FRAGMENT ? selection : w.fragments.get(selection.name.value);
      if (fragment === undefined) continue;
      const condition = fragment.typeCondition ? w.schema.getType(fragment.typeCondition.name.value) : type;
      inner = walk(w, fragment.selectionSet, condition ?? type, level, multiplier);
    }
    depth = Math.max(depth, inner.depth);
    cost += inner.cost;
  }
  return { depth, cost };
}

function field(w: Walk, node: FieldNode, parent: GraphQLNamedType, level: number, multiplier: number): QueryShape {
  const definition = isObjectType(parent) ? parent.getFields()[node.name.value] : undefined;
  if (!node.selectionSet || definition === undefined) return { depth: level, cost: multiplier };
  const paged = definition.args.some((a) => a.name === 'first');
  const factor = paged ? pageSize(w, node, definition.args.find((a) => a.name === 'first')?.defaultValue) : 1;
  const inner = walk(w, node.selectionSet, getNamedType(definition.type), level + 1, multiplier * factor);
  return { depth: Math.max(level, inner.depth), cost: multiplier + inner.cost };
}

function pageSize(w: Walk, node: FieldNode, schemaDefault: unknown): number {
  const argument = node.arguments?.find((a) => a.name.value === 'first');
  const value = argument ? valueFromASTUntyped(argument.value, w.variables) : schemaDefault;
  const size = typeof value === 'number' && Number.isFinite(value) ? Math.floor(value) : w.options.defaultPageSize;
  return Math.min(Math.max(size, 1), w.options.maxPageSize);
}
