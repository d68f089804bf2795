export const DOCUMENT_STORE = Symbol('DOCUMENT_STORE');

export type JsonScalar = string | number | boolean | null;
export type JsonValue = JsonScalar | JsonValue[] | { [key: string]: JsonValue };

/**
 * A read-model document: plain JSON with a string `_id`. Field names must not start with `$`,
 * contain `.` or be `_version` (reserved for the store).
 */
export interface DocumentInput {
  _id: string;
  [field: string]: JsonValue | undefined;
}

/**
 * What reads return: the document plus `_version`, which the store sets (1 on insert, +1 on
 * every write). It is ignored when the document is written back.
 */
export type StoredDocument<T extends DocumentInput = DocumentInput> = T & { _version: number };

/**
 * Conditions on one field. A path is `field` or `nested.field` (letters, digits, `_`). Only
 * scalar fields are matched: a field holding an array or an object matches no operator (MongoDB
 * would match array elements; do not filter on array fields). `null` matches a missing field too.
 * Ranges compare numbers with numbers and strings with strings (binary order) only.
 */
export type RangeValue = string | number;
export interface FieldOperators {
  $eq?: JsonScalar;
  $in?: readonly JsonScalar[];
  $gt?: RangeValue;
  $gte?: RangeValue;
  $lt?: RangeValue;
  $lte?: RangeValue;
}
export type FieldCondition = JsonScalar | FieldOperators;
/** Every entry must hold (AND). `_id` is a valid path. */
export type Filter = Readonly<Record<string, FieldCondition>>;

export type SortDirection = 1 | -1;
/**
 * Sort keys in order of precedence. `_id` (ascending unless listed, and then only last) always
 * ends the order, so it is total and a cursor is never ambiguous. Missing and null sort first
 * ascending, last descending. A sort field must hold one scalar type across the collection.
 */
export type Sort = ReadonlyArray<readonly [path: string, direction: SortDirection]>;

export interface FindQuery {
  filter?: Filter;
  sort?: Sort;
  /** Default DEFAULT_PAGE_SIZE; more than the store's maximum page size is a PageSizeExceededError. */
  limit?: number;
  /** `endCursor` of the previous page, from a query with the same sort. */
  after?: string;
}

export interface Page<T extends DocumentInput> {
  items: StoredDocument<T>[];
  /**
   * Cursor after the last item (undefined when the page is empty). Keyset-based: documents
   * inserted later are seen by later pages only if they sort after it, and nothing that existed
   * is skipped or repeated. Also usable to poll for later documents when `hasMore` is false.
   */
  endCursor: string | undefined;
  hasMore: boolean;
}

export interface WriteOptions {
  /**
   * Compare-and-set: the write happens only if the stored `_version` equals this (0 = the document
   * must not exist); otherwise DocumentConflictError. Omitted = unconditional.
   */
  expectedVersion?: number;
}

export interface WriteResult {
  id: string;
  /** The document's `_version` after the write. */
  version: number;
}

/** One compare-and-set write of `upsertMany`. */
export interface ConditionalWrite {
  document: DocumentInput;
  /** As WriteOptions.expectedVersion. */
  expectedVersion?: number;
}

/** What became of one write of `upsertMany`: its result, or the LomoError it met (others still apply). */
export type ConditionalWriteOutcome = { ok: true; result: WriteResult } | { ok: false; error: Error };

export type BulkOperation = { type: 'upsert'; document: DocumentInput } | { type: 'delete'; id: string };

export interface BulkResult {
  upserted: number;
  deleted: number;
}

/**
 * Index declared in code. Non-unique indexes get `_id` as an implicit last key, so that a
 * sorted, cursor-paginated find can be served by the index alone. A unique field should be present
 * on every document: MongoDB indexes a missing field as null (one allowed), SQLite allows many.
 */
export interface IndexSpec {
  fields: Readonly<Record<string, SortDirection>>;
  unique?: boolean;
}

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 500;
/** Bound on ids per getMany and operations per bulkWrite, to keep one call one round trip. */
export const MAX_BATCH_SIZE = 5_000;

/**
 * Collections of JSON documents for read models. Collections come into existence on the first
 * write or ensureIndexes; reading an absent collection returns nothing. Every error that is not
 * a programming error is a LomoError: DocumentConflictError, UniqueConstraintError,
 * DocumentStoreUnavailableError (retriable), InvalidQueryError, InvalidDocumentError,
 * PageSizeExceededError.
 *
 * No call spans several documents atomically: on MongoDB a failing bulkWrite leaves the operations
 * before the failing one applied (all of them are idempotent, so repeating the call is safe).
 */
export interface DocumentStore {
  get<T extends DocumentInput = DocumentInput>(collection: string, id: string): Promise<StoredDocument<T> | undefined>;
  /** Found documents in the order of `ids` (duplicates once); missing ids are left out. */
  getMany<T extends DocumentInput = DocumentInput>(
    collection: string,
    ids: readonly string[],
  ): Promise<StoredDocument<T>[]>;
  /** Replaces the whole document (fields absent from `document` are removed). */
  upsert(collection: string, document: DocumentInput, options?: WriteOptions): Promise<WriteResult>;
  /** False when there was nothing to delete (and no expectedVersion was given). */
  delete(collection: string, id: string, options?: WriteOptions): Promise<boolean>;
  find<T extends DocumentInput = DocumentInput>(collection: string, query?: FindQuery): Promise<Page<T>>;
  count(collection: string, filter?: Filter): Promise<number>;
  /**
   * Several `upsert`s of one collection, each with its own compare-and-set and its own outcome (a
   * conflict or unique violation fails that write only), in order; a malformed write refuses the
   * call before anything is written. Not atomic across writes; where the store can (SQLite) they
   * share one transaction, which is why it exists: a projector's live batch writes its documents
   * in one commit instead of one each (bench/workspace-fanout.ts).
   */
  upsertMany(collection: string, writes: readonly ConditionalWrite[]): Promise<ConditionalWriteOutcome[]>;
  /** Unconditional upserts and deletes, applied in order. */
  bulkWrite(collection: string, operations: readonly BulkOperation[]): Promise<BulkResult>;
  /** Creates what is missing; repeating a declaration is a no-op. Never drops an index. */
  ensureIndexes(collection: string, indexes: readonly IndexSpec[]): Promise<void>;
  /** False when the collection did not exist. */
  dropCollection(collection: string): Promise<boolean>;
  listCollections(): Promise<string[]>;
  close(): Promise<void>;
}
