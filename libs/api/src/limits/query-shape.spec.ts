import { buildSchema, Kind, parse, type FragmentDefinitionNode, type OperationDefinitionNode } from 'graphql';
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
    expect(measure('{ tasks(first: 10) { edges { node { id goal } } } }')).toEqual({ depth: 4, cost: 41 });
    expect(measure('{ me }')).toEqual({ depth: 1, cost: 1 });
  });

  it('multiplies nested pages, reads `first` from variables, and uses the schema default when absent', () => {
    const q = 'query($n: Int) { tasks(first: $n) { edges { node { turns { edges { node { id } } } } } } }';
    // 1 + 3×5 (edges, node, turns) + 3×5×20 (edges, node, id)
    expect(measure(q, { n: 5 }).cost).toBe(1 + 15 + 300);
  });

  it('counts a page larger than the maximum at the maximum (validation refuses it separately)', () => {
    expect(measure('{ tasks(first: 5000) { edges { node { id } } } }').cost).toBe(1 + 3 * 100);
  });

  it('expands fragments and inline fragments, and ignores introspection fields', () => {
    const q = `{ task(id: "1") { ...T ... on Task { goal } } __schema { types { name } } }
      fragment T on Task { turns(first: 2) { edges { node { task { id } } } } }`;
    expect(measure(q)).toEqual({ depth: 6, cost: 1 + 1 + 1 + 2 * 4 });
  });
});
