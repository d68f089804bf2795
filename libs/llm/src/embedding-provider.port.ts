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
  /**
   * Vectors for search queries, when the embedder treats a query unlike a document (the ONNX
   * bilingual embedder embeds a query with its language's model only); `embed` otherwise.
   */
  embedQuery?(request: EmbeddingRequest): Promise<Float32Array[]>;
  /**
   * What a query-to-document cosine is worth against the embedder's own cosine (1 when unset):
   * a floor set on cosines (recall's abstention floor) is multiplied by it.
   */
  readonly querySimilarityScale?: number;
}
