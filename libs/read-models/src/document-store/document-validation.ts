import type { DocumentInput, JsonValue } from './document-store.port';
import { InvalidDocumentError } from './document-store.errors';
import { isPlainObject } from './query/parse-filter';

const MAX_ID_LENGTH = 512;
// MongoDB's own nesting limit; SQLite's JSON functions allow more, so this is the common bound.
const MAX_DEPTH = 100;

/** The JSON body of a document, without `_id` and `_version`: what the adapters store. */
export type DocumentBody = { [field: string]: JsonValue };

export function assertDocumentId(id: unknown): asserts id is string {
  if (typeof id !== 'string' || id.length === 0 || id.length > MAX_ID_LENGTH) {
    throw new InvalidDocumentError(`_id must be a non-empty string of at most ${MAX_ID_LENGTH} characters`, '_id');
  }
}

/**
 * The keys from the root to the value being checked. A path string is built only for an error:
 * building one per field (`${path}.${key}`) cost more than the check itself.
 */
type Keys = Array<string | number>;

function pathOf(keys: Keys): string {
  let path = '';
  for (const key of keys) path = typeof key === 'number' ? `${path}[${key}]` : path === '' ? key : `${path}.${key}`;
  return path;
}

function invalid(keys: Keys, message: (path: string) => string): InvalidDocumentError {
  const path = pathOf(keys);
  return new InvalidDocumentError(message(path), path);
}

/**
 * Checks one value (at `keys`) and, when `copy` is set, returns a fresh plain-JSON copy of it;
 * otherwise returns the value itself, checked.
 */
function walkValue(value: unknown, keys: Keys, depth: number, copy: boolean): JsonValue {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw invalid(keys, (path) => `${path}: numbers must be finite`);
    return value;
  }
  if (depth >= MAX_DEPTH) throw invalid(keys, (path) => `${path}: nested deeper than ${MAX_DEPTH}`);
  if (Array.isArray(value)) {
    const out: JsonValue[] | undefined = copy ? new Array<JsonValue>(value.length) : undefined;
    for (let i = 0; i < value.length; i += 1) {
      keys.push(i);
      const item: unknown = value[i];
      // A hole (`[1, , 2]`) is left as it was, as `map` did: JSON has it as null.
      if (item === undefined && !(i in value)) {
        keys.pop();
        continue;
      }
      if (item === undefined) throw invalid(keys, (path) => `${path}: undefined in an array`);
      const checked = walkValue(item, keys, depth + 1, copy);
      if (out !== undefined) out[i] = checked;
      keys.pop();
    }
    return out ?? (value as JsonValue[]);
  }
  if (isPlainObject(value)) return walkObject(value, keys, depth + 1, copy);
  throw invalid(keys, (path) => `${path}: not a JSON value (${Object.prototype.toString.call(value)})`);
}

const validFieldName = (key: string) =>
  key.length > 0 && key.charCodeAt(0) !== 36 /* $ */ && key.indexOf('.') === -1 && key.indexOf('\0') === -1;

function walkObject(value: Record<string, unknown>, keys: Keys, depth: number, copy: boolean): DocumentBody {
  const out: DocumentBody | undefined = copy ? {} : undefined;
  const names = Object.keys(value);
  for (let i = 0; i < names.length; i += 1) {
    const key = names[i];
    // `$` and `.` have meaning in MongoDB paths and updates; refusing them keeps adapters alike.
    if (!validFieldName(key)) {
      const at = pathOf(keys);
      keys.push(key);
      throw new InvalidDocumentError(`Invalid field name ${JSON.stringify(key)} at ${at || '(root)'}`, pathOf(keys));
    }
    const child = value[key];
    // Dropped like JSON.stringify does, so an optional TypeScript field is simply absent.
    if (child === undefined) continue;
    let checked: JsonValue;
    if (child === null || typeof child === 'string' || typeof child === 'boolean') {
      checked = child;
    } else {
      keys.push(key);
      checked = walkValue(child, keys, depth, copy);
      keys.pop();
    }
    if (out !== undefined) out[key] = checked;
  }
  return out ?? (value as DocumentBody);
}

/** The document without `_id` and `_version` (a shallow copy), its id checked. */
function split(document: DocumentInput): { id: string; rest: Record<string, unknown> } {
  if (!isPlainObject(document)) throw new InvalidDocumentError('A document must be a plain object', '(root)');
  const { _id: id, _version: _ignored, ...rest } = document;
  assertDocumentId(id);
  return { id, rest };
}

/**
 * Validates a document and returns its body: a fresh plain-JSON copy without `_id`, `_version`
 * (store-managed, ignored on write) and undefined fields.
 */
export function documentBody(document: DocumentInput): { id: string; body: DocumentBody } {
  const { id, rest } = split(document);
  return { id, body: walkObject(rest, [], 0, true) };
}

/**
 * Validates a document like `documentBody` and returns its body as JSON text, without copying
 * it first: for a store that keeps the text, the copy would be garbage at once. The text is what
 * `JSON.stringify(documentBody(document).body)` gives (undefined fields dropped, key order kept).
 */
export function documentJson(document: DocumentInput): { id: string; json: string } {
  const { id, rest } = split(document);
  walkObject(rest, [], 0, false);
  return { id, json: JSON.stringify(rest) };
}
