export const BLOB_STORE = Symbol('BLOB_STORE');

export interface BlobRef {
  /** sha256 of the content, hex: the blob's address. */
  hash: string;
  bytes: number;
  contentType: string;
}

/**
 * Content-addressed storage for prompts, large tool outputs, media and deletable text.
 * Putting the same content twice is a no-op returning the same hash.
 */
export interface BlobStore {
  put(content: Buffer | string, contentType: string): Promise<BlobRef>;
  /** undefined when absent (never stored, or deleted). */
  get(hash: string): Promise<Buffer | undefined>;
  has(hash: string): Promise<boolean>;
  /** Forgetting: true when something was deleted. */
  delete(hash: string): Promise<boolean>;
}
