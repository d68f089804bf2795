import { createHash } from 'node:crypto';
import type { IndexSpec, SortDirection } from './document-store.port';
import { InvalidQueryError } from './document-store.errors';
import { assertFieldPath } from './query/names';
import { isPlainObject } from './query/parse-filter';

const MAX_INDEX_FIELDS = 8;
const MAX_NAME_LENGTH = 60;

export interface IndexPlan {
  /** Deterministic, so repeating a declaration finds the existing index by name. */
  name: string;
  fields: Array<{ path: string; direction: SortDirection }>;
  unique: boolean;
}

export function planIndex(spec: IndexSpec): IndexPlan {
  if (!isPlainObject(spec) || !isPlainObject(spec.fields)) {
    throw new InvalidQueryError('An index is { fields: { path: 1 | -1, ... }, unique? }');
  }
  const fields = Object.entries(spec.fields).map(([path, direction]) => {
    assertFieldPath(path);
    if (path === '_id') throw new InvalidQueryError('_id is always indexed; do not declare it', { path });
    if (direction !== 1 && direction !== -1) {
      throw new InvalidQueryError(`Index direction of ${path} must be 1 or -1`, { path, direction });
    }
    return { path, direction };
  });
  if (fields.length === 0 || fields.length > MAX_INDEX_FIELDS) {
    throw new InvalidQueryError(`An index has 1 to ${MAX_INDEX_FIELDS} fields`);
  }
  const unique = spec.unique === true;
  // Uniqueness is part of the name: the same fields may be declared both ways without clashing.
  // `:` and `,` cannot occur in paths, so distinct declarations never share a name.
  let name = `${unique ? 'ux' : 'ix'}:${fields.map((f) => `${f.path}:${f.direction}`).join(',')}`;
  if (name.length > MAX_NAME_LENGTH) {
    const hash = createHash('sha256').update(name).digest('hex').slice(0, 12);
    name = `${name.slice(0, MAX_NAME_LENGTH - 13)}_${hash}`;
  }
  return { name, fields, unique };
}

/**
 * The fields of a unique index, read back from our own index name where an error message quotes
 * it (SQLite and FerretDB do; names shortened with a hash cannot be read back).
 */
export function uniqueFieldsInMessage(message: string): string[] | undefined {
  const match = /ux:((?:[\w.]+:-?1)(?:,[\w.]+:-?1)*)(?![\w.:,])/.exec(message);
  return match?.[1].split(',').map((f) => f.slice(0, f.lastIndexOf(':')));
}
