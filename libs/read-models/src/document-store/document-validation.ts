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

function copyValue(value: unknown, path: string, depth: number): JsonValue {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new InvalidDocumentError(`${path}: numbers must be finite`, path);
    return value;
  }
  if (depth >= MAX_DEPTH) throw new InvalidDocumentError(`${path}: nested deeper than ${MAX_DEPTH}`, path);
  if (Array.isArray(value)) {
    return value.map((item, i) => {
      if (item === undefined) throw new InvalidDocumentError(`${path}[${i}]: undefined in an array`, `${path}[${i}]`);
      return copyValue(item, `${path}[${i}]`, depth + 1);
    });
  }
  if (isPlainObject(value)) return copyObject(value, path, depth + 1);
  throw new InvalidDocumentError(`${path}: not a JSON value (${Object.prototype.toString.call(value)})`, path);
}

function copyObject(value: Record<string, unknown>, path: string, depth: number): DocumentBody {
  const out: DocumentBody = {};
  for (const [key, child] of Object.entries(value)) {
    const childPath = path === '' ? key : `${path}.${key}`;
    // `$` and `.` have meaning in MongoDB paths and updates; refusing them keeps adapters alike.
    if (key.length === 0 || key.startsWith('$') || key.includes('.') || key.includes('\0')) {
      throw new InvalidDocumentError(`Invalid field name ${JSON.stringify(key)} at ${path || '(root)'}`, childPath);
    }
    // Dropped like JSON.stringify does, so an optional TypeScript field is simply absent.
    if (child === undefined) continue;
    out[key] = copyValue(child, childPath, depth);
  }
  return out;
}

/**
 * Validates a document and returns its body: a fresh plain-JSON copy without `_id`, `_version`
 * (store-managed, ignored on write) and undefined fields.
 */
export function documentBody(document: DocumentInput): { id: string; body: DocumentBody } {
  if (!isPlainObject(document)) throw new InvalidDocumentError('A document must be a plain object', '(root)');
  const { _id: id, _version: _ignored, ...rest } = document;
  assertDocumentId(id);
  return { id, body: copyObject(rest, '', 0) };
}
