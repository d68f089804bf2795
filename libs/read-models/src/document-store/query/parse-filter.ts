import type { JsonScalar } from '../document-store.port';
import { InvalidQueryError } from '../document-store.errors';
import { assertFieldPath } from './names';
import { ALWAYS, and, NEVER, type ComparisonOperator, type Predicate } from './predicate';

const MAX_IN_VALUES = 1_000;
const RANGE_OPERATORS: Readonly<Record<string, ComparisonOperator>> = {
  $gt: 'gt',
  $gte: 'gte',
  $lt: 'lt',
  $lte: 'lte',
};

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' &&
  value !== null &&
  !Array.isArray(value) &&
  (Object.getPrototypeOf(value) === Object.prototype || Object.getPrototypeOf(value) === null);

function isScalar(value: unknown): value is JsonScalar {
  return (
    value === null ||
    typeof value === 'string' ||
    typeof value === 'boolean' ||
    (typeof value === 'number' && Number.isFinite(value))
  );
}

function scalar(path: string, operator: string, value: unknown): JsonScalar {
  if (!isScalar(value)) {
    throw new InvalidQueryError(`${path} ${operator}: expected a string, finite number, boolean or null`, {
      path,
      operator,
    });
  }
  if (path === '_id' && typeof value !== 'string') {
    throw new InvalidQueryError(`_id ${operator}: _id is always a string`, { path, operator });
  }
  return value;
}

function condition(path: string, raw: unknown): Predicate {
  if (!isPlainObject(raw)) {
    return { kind: 'compare', path, op: 'eq', value: scalar(path, '=', raw) };
  }
  const entries = Object.entries(raw).filter(([, v]) => v !== undefined);
  if (entries.length === 0) throw new InvalidQueryError(`${path}: empty condition`, { path });
  return and(
    ...entries.map(([operator, value]): Predicate => {
      if (operator === '$eq') return { kind: 'compare', path, op: 'eq', value: scalar(path, operator, value) };
      if (operator === '$in') {
        if (!Array.isArray(value) || value.length > MAX_IN_VALUES) {
          throw new InvalidQueryError(`${path} $in: expected an array of at most ${MAX_IN_VALUES} values`, { path });
        }
        const values = value.map((v) => scalar(path, operator, v));
        return values.length === 0 ? NEVER : { kind: 'in', path, values };
      }
      const op = RANGE_OPERATORS[operator];
      if (op === undefined) {
        throw new InvalidQueryError(`${path}: unsupported operator ${JSON.stringify(operator)}`, { path, operator });
      }
      if (typeof value !== 'string' && !(typeof value === 'number' && Number.isFinite(value))) {
        throw new InvalidQueryError(`${path} ${operator}: ranges take a string or a finite number`, { path, operator });
      }
      scalar(path, operator, value);
      return { kind: 'compare', path, op, value };
    }),
  );
}

/** Validates a caller's filter (it may come from API input) into the shared predicate form. */
export function parseFilter(filter: unknown): Predicate {
  if (filter === undefined) return ALWAYS;
  if (!isPlainObject(filter)) throw new InvalidQueryError('A filter must be a plain object of field conditions');
  return and(
    ...Object.entries(filter)
      .filter(([, raw]) => raw !== undefined)
      .map(([path, raw]) => {
        assertFieldPath(path);
        return condition(path, raw);
      }),
  );
}

export { isPlainObject, isScalar };
