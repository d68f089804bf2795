import {
  buildSchema,
  getIntrospectionQuery,
  Kind,
  parse,
  type FragmentDefinitionNode,
  type OperationDefinitionNode,
} from 'graphql';
import { shapeRefusal } from './operation-limits';
import { measureQuery } from './query-shape';

const schema = buildSchema(`
  type Query { tasks(first: Int = 20): TaskConnection!  task(id: ID!): Task  me: String }
  type TaskConnection { edges: [TaskEdge!]! }
  type TaskEdge { node: Task! }
  type Task { id: ID!  turns(first: Int = 20): TurnConnection!  goal: String }
  type TurnConnection { edges: [TurnEdge!]! }
  type TurnEdge { node: Turn! }
  type Turn { id: ID!  task: Task }
`);

function measure(query: string, variables: Record<string, unknown> = {}) {
  const document = parse(query);
  const operation = document.definitions.find(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
  );
  const fragments = new Map(
    document.definitions
      .filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION)
      .map((d) => [d.name.value, d] as const),
  );
  return measureQuery(schema, operation!, fragments, variables, { defaultPageSize: 20, maxPageSize: 100 });
}

describe('measureQuery', () => {
  it('counts depth as nested fields and cost as fields times the page sizes above them', () => {
    // tasks 1 + (edges, node, id, goal) × 10
    expect(measure('{ tasks(first: 10) { edges { node { id goal } } } }')).toMatchObject({ depth: 4, cost: 41 });
    expect(measure('{ me }')).toEqual({ depth: 1, introspectionDepth: 0, cost: 1, aliases: 0, directives: 0 });
  });

  it('multiplies nested pages, reads `first` from variables, and uses the schema default when absent', () => {
    const q = 'query($n: Int) { tasks(first: $n) { edges { node { turns { edges { node { id } } } } } } }';
    // 1 + 3×5 (edges, node, turns) + 3×5×20 (edges, node, id)
    expect(measure(q, { n: 5 }).cost).toBe(1 + 15 + 300);
  });

  it('counts a page larger than the maximum at the maximum (validation refuses it separately)', () => {
    expect(measure('{ tasks(first: 5000) { edges { node { id } } } }').cost).toBe(1 + 3 * 100);
  });

  it('expands fragments and inline fragments, and measures introspection apart from the data depth', () => {
    const q = `{ task(id: "1") { ...T ... on Task { goal } } __schema { types { name } } }
      fragment T on Task { turns(first: 2) { edges { node { task { id } } } } }`;
    expect(measure(q)).toMatchObject({ depth: 6, introspectionDepth: 3, cost: 1 + 1 + 1 + 2 * 4 + 3 });
  });

  const ofTypes = (levels: number): string => (levels === 0 ? 'name' : `ofType { ${ofTypes(levels - 1)} }`);
  const limits = {
    maxDepth: 12,
    maxCost: 10_000,
    maxAliases: 50,
    maxDirectives: 50,
    defaultPageSize: 20,
    maxPageSize: 100,
  };

  it('refuses a 40-level __type … ofType chain, and lets the standard introspection query through', () => {
    const deep = measure(`{ __type(name: "Task") { ${ofTypes(40)} } }`);
    expect(deep.introspectionDepth).toBe(42);
    expect(shapeRefusal(deep, limits)).toMatchObject({ code: 'QUERY_TOO_DEEP', details: { depth: 42, maxDepth: 15 } });
    // graphql-js's own introspection query, which the explorer's GraphiQL sends, is 15 deep.
    const standard = measure(getIntrospectionQuery({ descriptions: true, inputValueDeprecation: true }));
    expect(standard.introspectionDepth).toBe(15);
    expect(shapeRefusal(standard, limits)).toBeUndefined();
    // __typename is a data field, measured against maxDepth like any other.
    expect(measure('{ task(id: "1") { __typename } }')).toMatchObject({ depth: 2, introspectionDepth: 0 });
  });

  it('counts aliases and directives as executed: once per fragment spread', () => {
    const aliased = Array.from({ length: 10 }, (_, i) => `a${i}: goal`).join(' ');
    const q = `query Q @skip(if: false) { task(id: "1") { ...F ...F @include(if: true) ... on Task @skip(if: false) { x: id } } }
      fragment F on Task @include(if: true) { ${aliased} }`;
    // 10 aliases × 2 spreads + x; directives: operation 1, spread 1, inline fragment 1, definition 1 × 2 spreads.
    expect(measure(q)).toMatchObject({ aliases: 21, directives: 5 });
    expect(shapeRefusal(measure(q), { ...limits, maxAliases: 20 })).toMatchObject({
      code: 'TOO_MANY_ALIASES',
      details: { aliases: 21, maxAliases: 20 },
    });
    expect(shapeRefusal(measure(q), { ...limits, maxDirectives: 4 })).toMatchObject({ code: 'TOO_MANY_DIRECTIVES' });
    expect(shapeRefusal(measure(q), limits)).toBeUndefined();
  });
});
