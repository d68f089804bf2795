export const EMBEDDING_PROVIDER = Symbol('EMBEDDING_PROVIDER');

export interface EmbeddingRequest {
  texts: readonly string[];
  signal?: AbortSignal;
}

/**
 * Turns texts into vectors for summary-vector retrieval (routing). `kind` says honestly what the
 * vectors capture: `semantic` for a learned model (the OpenAI embeddings adapter), `lexical` for
 * the local default (feature hashing of words and character bigrams, no network, no weights).
 * Vectors are L2-normalised, `dimensions` long. Rejects only with a ModelError.
 */
export interface EmbeddingProvider {
  readonly name: string;
  readonly kind: 'semantic' | 'lexical';
  readonly dimensions: number;
  embed(request: EmbeddingRequest): Promise<Float32Array[]>;
}
