import { tokenize } from '@lomo/text';
import { ModelBadRequestError, throwIfAborted } from '../model-errors';
import type { EmbeddingProvider, EmbeddingRequest } from '../embedding-provider.port';

export const HASHING_EMBEDDING_DEFAULTS = { dimensions: 256 } as const;

/** FNV-1a, 32 bits: fast, stable across runs and platforms (the vectors may be stored). */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/**
 * The local default embedder: LEXICAL, not semantic. Feature hashing of the `@lomo/text` tokens
 * (words without stopwords, Han character bigrams) into `dimensions` buckets with a hashed sign
 * (so collisions cancel out on average instead of piling up), then L2-normalised: the cosine of
 * two vectors approximates the overlap of their token sets. No network, no weights; it finds
 * shared words, never synonyms. A text with no tokens gives the zero vector.
 */
export class HashingEmbeddingProvider implements EmbeddingProvider {
  readonly name = 'hashing';
  readonly kind = 'lexical' as const;
  readonly dimensions: number;

  constructor(options: { dimensions?: number } = {}) {
    this.dimensions = options.dimensions ?? HASHING_EMBEDDING_DEFAULTS.dimensions;
    if (!Number.isInteger(this.dimensions) || this.dimensions < 8 || this.dimensions > 65_536) {
      throw new ModelBadRequestError(`hashing embedder dimensions must be an integer in 8..65536`, {
        dimensions: this.dimensions,
      });
    }
  }

  /** Synchronous core, for callers (index updates, benches) that embed in a hot loop. */
  embedOne(text: string): Float32Array {
    const vector = new Float32Array(this.dimensions);
    for (const token of tokenize(text)) {
      const hash = fnv1a(token);
      // Low bits pick the bucket, the top bit the sign: one hash, two independent-enough uses.
      const bucket = (hash & 0x7fffffff) % this.dimensions;
      vector[bucket]! += hash & 0x80000000 ? -1 : 1;
    }
    let norm = 0;
    for (let i = 0; i < vector.length; i += 1) norm += vector[i]! * vector[i]!;
    if (norm > 0) {
      const scale = 1 / Math.sqrt(norm);
      for (let i = 0; i < vector.length; i += 1) vector[i]! *= scale;
    }
    return vector;
  }

  async embed(request: EmbeddingRequest): Promise<Float32Array[]> {
    throwIfAborted(request.signal);
    return request.texts.map((text) => this.embedOne(text));
  }
}
