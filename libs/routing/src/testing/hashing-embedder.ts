import type { EmbeddingProvider, EmbeddingRequest } from '@lomo/llm';
import { tokenize } from '@lomo/text';

/** A stand-in embedder for tests: feature hashing of `@lomo/text` tokens, L2-normalised (lexical). */
export class StandInHashingEmbedder implements EmbeddingProvider {
  readonly name = 'stand-in-hashing';
  readonly kind = 'lexical' as const;
  constructor(readonly dimensions = 256) {}

  async embed(request: EmbeddingRequest): Promise<Float32Array[]> {
    return request.texts.map((text) => {
      const v = new Float32Array(this.dimensions);
      for (const token of tokenize(text)) v[hash(token) % this.dimensions] += 1;
      const norm = Math.hypot(...v) || 1;
      for (let i = 0; i < v.length; i += 1) v[i] = v[i]! / norm;
      return v;
    });
  }
}

function hash(token: string): number {
  let h = 2166136261;
  for (let i = 0; i < token.length; i += 1) h = Math.imul(h ^ token.charCodeAt(i), 16777619);
  return h >>> 0;
}
