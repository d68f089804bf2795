import type { JsonScalar } from '../document-store.port';
import type { IndexPlan } from '../index-spec';
import type { Predicate } from '../query/predicate';
import type { SortKey } from '../query/sort-keys';

export type SqlParam = string | number | null;
export interface SqlFragment {
  sql: string;
  params: SqlParam[];
}

const TABLE_PREFIX = 'doc_';

/** Collection names are validated (letters, digits, _), so quoting is enough. */
export const tableName = (collection: string) => `"${TABLE_PREFIX}${collection}"`;
export const collectionOfTable = (table: string) => table.slice(TABLE_PREFIX.length);
export const TABLE_NAME_PATTERN = `${TABLE_PREFIX.replace('_', '\\_')}%`;
export const indexName = (collection: string, index: IndexPlan) => `"${TABLE_PREFIX}${collection}/${index.name}"`;

/**
 * The path is inlined, never bound: SQLite uses an expression index only when the query repeats
 * the indexed expression literally. Paths are validated against a strict alphabet upstream.
 */
export const fieldExpression = (path: string) => (path === '_id' ? '_id' : `json_extract(doc, '$.${path}')`);
const typeExpression = (path: string) => `json_type(doc, '$.${path}')`;

const NUMBER_TYPES = "('integer', 'real')";
const OPERATORS = { eq: '=', gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;

/** json_extract turns true/false into 1/0; the json_type guard keeps them apart from numbers. */
function typeGuard(path: string, value: Exclude<JsonScalar, null>): string {
  if (typeof value === 'number') return `${typeExpression(path)} IN ${NUMBER_TYPES}`;
  if (typeof value === 'boolean') return `${typeExpression(path)} IN ('true', 'false')`;
  return `${typeExpression(path)} = 'text'`;
}

const bind = (value: Exclude<JsonScalar, null>): SqlParam => (typeof value === 'boolean' ? (value ? 1 : 0) : value);

function compare(path: string, op: keyof typeof OPERATORS, value: JsonScalar): SqlFragment {
  const field = fieldExpression(path);
  if (value === null) return { sql: op === 'eq' ? `${field} IS NULL` : '0', params: [] };
  const test = `${field} ${OPERATORS[op]} ?`;
  // `_id` is a plain TEXT column; string equality cannot match an array's JSON text in practice,
  // so only numbers, booleans and string ranges need the (per-row) type check.
  if (path === '_id' || (op === 'eq' && typeof value === 'string')) return { sql: test, params: [bind(value)] };
  return { sql: `(${test} AND ${typeGuard(path, value)})`, params: [bind(value)] };
}

function inList(path: string, values: readonly JsonScalar[]): SqlFragment {
  const field = fieldExpression(path);
  const parts: SqlFragment[] = [];
  if (values.includes(null)) parts.push({ sql: `${field} IS NULL`, params: [] });
  const strings = values.filter((v): v is string => typeof v === 'string');
  if (strings.length > 0) parts.push({ sql: `${field} IN (${strings.map(() => '?').join(', ')})`, params: strings });
  const numbers = values.filter((v): v is number => typeof v === 'number');
  if (numbers.length > 0) {
    parts.push({
      sql: `(${field} IN (${numbers.map(() => '?').join(', ')}) AND ${typeGuard(path, 0)})`,
      params: numbers,
    });
  }
  for (const flag of new Set(values.filter((v): v is boolean => typeof v === 'boolean'))) {
    parts.push(compare(path, 'eq', flag));
  }
  return join(parts, 'OR');
}

function join(parts: SqlFragment[], operator: 'AND' | 'OR'): SqlFragment {
  if (parts.length === 0) return { sql: operator === 'AND' ? '1' : '0', params: [] };
  if (parts.length === 1) return parts[0];
  return { sql: `(${parts.map((p) => p.sql).join(` ${operator} `)})`, params: parts.flatMap((p) => p.params) };
}

export function compileWhere(predicate: Predicate): SqlFragment {
  switch (predicate.kind) {
    case 'compare':
      return compare(predicate.path, predicate.op, predicate.value);
    case 'in':
      return inList(predicate.path, predicate.values);
    case 'notNull':
      return { sql: `${fieldExpression(predicate.path)} IS NOT NULL`, params: [] };
    case 'and':
      return join(predicate.items.map(compileWhere), 'AND');
    case 'or':
      return join(predicate.items.map(compileWhere), 'OR');
  }
}

/** SQLite, like MongoDB, puts NULL first ascending and last descending. */
export const compileOrderBy = (keys: readonly SortKey[]) =>
  keys.map((k) => `${fieldExpression(k.path)} ${k.direction === 1 ? 'ASC' : 'DESC'}`).join(', ');

/** Non-unique indexes end with `_id` (the sort tie-breaker), so a sorted page is an index walk. */
export function indexColumns(index: IndexPlan): string {
  const columns = index.fields.map((f) => `${fieldExpression(f.path)} ${f.direction === 1 ? 'ASC' : 'DESC'}`);
  return (index.unique ? columns : [...columns, '_id ASC']).join(', ');
}
