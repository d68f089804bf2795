import {
  getNamedType,
  isObjectType,
  Kind,
  SchemaMetaFieldDef,
  TypeMetaFieldDef,
  TypeNameMetaFieldDef,
  valueFromASTUntyped,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';

export interface QueryShape {
  /** Deepest chain of nested fields outside `__schema` / `__type`. */
  depth: number;
  /** Deepest chain that runs through `__schema` or `__type` (0 without introspection). */
  introspectionDepth: number;
  /** Fields times the items their enclosing pages may return: see `measureQuery`. */
  cost: number;
  /** Aliased fields, as executed: an alias inside a fragment counts once per spread. */
  aliases: number;
  /** Directives on the operation, its variables and its selections, fragments expanded likewise. */
  directives: number;
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

type Inner = QueryShape;

const EMPTY: Inner = { depth: 0, introspectionDepth: 0, cost: 0, aliases: 0, directives: 0 };

/**
 * Static shape of an operation, before anything runs. Cost: each selected field costs 1 per item
 * its parent can hold; a field with a `first` argument multiplies what is below it by that page
 * size. So `tasks(first: 100) { edges { node { turns(first: 100) { ... } } } }` counts inner
 * fields 10 000 times. Fragments are expanded (validation has already refused cycles).
 * Introspection fields are measured like any other (`__type { ofType { ofType ... } } }` nests
 * without bound), with their depth kept apart: see `shapeRefusal`.
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
  const own =
    (operation.directives?.length ?? 0) +
    (operation.variableDefinitions ?? []).reduce((n, v) => n + (v.directives?.length ?? 0), 0);
  if (!root) return { ...EMPTY, directives: own };
  const shape = walk({ schema, fragments, variables, options }, operation.selectionSet, root, 1, 1, false);
  return { ...shape, directives: shape.directives + own };
}

function walk(
  w: Walk,
  selections: SelectionSetNode,
  type: GraphQLNamedType,
  level: number,
  multiplier: number,
  inIntrospection: boolean,
): Inner {
  const total = { ...EMPTY };
  for (const selection of selections.selections) {
    let inner: Inner;
    if (selection.kind === Kind.FIELD) {
      inner = field(w, selection, type, level, multiplier, inIntrospection);
    } else {
      const fragment = selection.kind === Kind.INLINE_FRAGMENT ? selection : w.fragments.get(selection.name.value);
      if (fragment === undefined) continue;
      const condition = fragment.typeCondition ? w.schema.getType(fragment.typeCondition.name.value) : type;
      inner = walk(w, fragment.selectionSet, condition ?? type, level, multiplier, inIntrospection);
      // The spread's own directives, and (for a named fragment) the definition's.
      inner.directives +=
        (selection.directives?.length ?? 0) + (fragment === selection ? 0 : (fragment.directives?.length ?? 0));
    }
    total.depth = Math.max(total.depth, inner.depth);
    total.introspectionDepth = Math.max(total.introspectionDepth, inner.introspectionDepth);
    total.cost += inner.cost;
    total.aliases += inner.aliases;
    total.directives += inner.directives;
  }
  return total;
}

/** The meta fields graphql-js resolves on any type (`__typename`) or on the query root only. */
function definitionOf(w: Walk, parent: GraphQLNamedType, name: string): GraphQLField<unknown, unknown> | undefined {
  if (name === TypeNameMetaFieldDef.name) return TypeNameMetaFieldDef;
  if (parent === w.schema.getQueryType()) {
    if (name === SchemaMetaFieldDef.name) return SchemaMetaFieldDef;
    if (name === TypeMetaFieldDef.name) return TypeMetaFieldDef;
  }
  return isObjectType(parent) ? parent.getFields()[name] : undefined;
}

function field(
  w: Walk,
  node: FieldNode,
  parent: GraphQLNamedType,
  level: number,
  multiplier: number,
  inIntrospection: boolean,
): Inner {
  const definition = definitionOf(w, parent, node.name.value);
  const aliases = node.alias !== undefined ? 1 : 0;
  const directives = node.directives?.length ?? 0;
  const introspection = inIntrospection || definition === SchemaMetaFieldDef || definition === TypeMetaFieldDef;
  const here = (deepest: number, below: Inner): Inner => ({
    depth: introspection ? 0 : Math.max(level, deepest),
    introspectionDepth: introspection ? Math.max(level, below.introspectionDepth) : below.introspectionDepth,
    cost: multiplier + below.cost,
    aliases: aliases + below.aliases,
    directives: directives + below.directives,
  });
  if (!node.selectionSet || definition === undefined) return here(level, EMPTY);
  const paged = definition.args.some((a) => a.name === 'first');
  const factor = paged ? pageSize(w, node, definition.args.find((a) => a.name === 'first')?.defaultValue) : 1;
  const inner = walk(
    w,
    node.selectionSet,
    getNamedType(definition.type),
    level + 1,
    multiplier * factor,
    introspection,
  );
  return here(inner.depth, inner);
}

function pageSize(w: Walk, node: FieldNode, schemaDefault: unknown): number {
  const argument = node.arguments?.find((a) => a.name.value === 'first');
  const value = argument ? valueFromASTUntyped(argument.value, w.variables) : schemaDefault;
  const size = typeof value === 'number' && Number.isFinite(value) ? Math.floor(value) : w.options.defaultPageSize;
  return Math.min(Math.max(size, 1), w.options.maxPageSize);
}
