import { tokenize } from '@lomo/text';
import { ModelBadRequestError, throwIfAborted } from '../model-errors';
import type { EmbeddingProvider, EmbeddingRequest } from '../embedding-provider.port';
import { CREATIVE_LEXICON, type LexiconConcept } from './creative-lexicon';

export const CONCEPT_EMBEDDING_DEFAULTS = {
  dimensions: 256,
  /** A concept counts more than a word: two wordings of one idea should meet. */
  conceptWeight: 1,
  /** The broader concept (blue → colour) helps a little, so "which colour" finds "teal". */
  parentWeight: 0.4,
  /** Each token still counts, so exact words (names, rare terms) keep their pull. */
  tokenWeight: 0.6,
} as const;

const HAN_RUN = /\p{Script=Han}+/gu;

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

interface Compiled {
  /** English (any non-Han) word, as @lomo/text tokenizes it → concept ids. */
  words: Map<string, string[]>;
  /** Han word → concept ids, matched by forward maximum matching (no dictionary segmenter). */
  han: Map<string, string[]>;
  maxHanLength: number;
  parents: Map<string, string>;
}

function compile(lexicon: readonly LexiconConcept[]): Compiled {
  const compiled: Compiled = { words: new Map(), han: new Map(), maxHanLength: 1, parents: new Map() };
  const add = (map: Map<string, string[]>, key: string, id: string) => {
    const ids = map.get(key) ?? [];
    if (!ids.includes(id)) map.set(key, [...ids, id]);
  };
  for (const concept of lexicon) {
    if (concept.parent) compiled.parents.set(concept.id, concept.parent);
    for (const word of concept.words) {
      const normal = word.normalize('NFKC').toLowerCase();
      if (/^\p{Script=Han}+$/u.test(normal)) {
        add(compiled.han, normal, concept.id);
        compiled.maxHanLength = Math.max(compiled.maxHanLength, [...normal].length);
        continue;
      }
      const tokens = tokenize(normal);
      if (tokens.length === 1) add(compiled.words, tokens[0]!, concept.id);
    }
  }
  return compiled;
}

/**
 * A local embedder that knows synonyms: LEXICAL still (no learned model, no network, no weights
 * to download), but each word also adds the concept it belongs to in a bilingual thesaurus of
 * the creative domain (CREATIVE_LEXICON, or one given), so "hue" meets "colour" and 藍色 meets
 * "blue". Features (token, concept, broader concept) are hashed into `dimensions` buckets with a
 * hashed sign, as in the hashing embedder, then L2-normalised. Han text is matched against the
 * thesaurus by forward maximum matching; its bigrams count as tokens. Words the thesaurus lacks
 * fall back to their token, so it is never worse than shared words alone.
 */
export class ConceptEmbeddingProvider implements EmbeddingProvider {
  readonly name = 'concept';
  readonly kind = 'lexical' as const;
  readonly dimensions: number;
  private readonly compiled: Compiled;
  private readonly weights: { concept: number; parent: number; token: number };

  constructor(
    options: {
      dimensions?: number;
      lexicon?: readonly LexiconConcept[];
      conceptWeight?: number;
      parentWeight?: number;
      tokenWeight?: number;
    } = {},
  ) {
    const d = CONCEPT_EMBEDDING_DEFAULTS;
    this.dimensions = options.dimensions ?? d.dimensions;
    if (!Number.isInteger(this.dimensions) || this.dimensions < 8 || this.dimensions > 65_536) {
      throw new ModelBadRequestError('concept embedder dimensions must be an integer in 8..65536', {
        dimensions: this.dimensions,
      });
    }
    this.compiled = compile(options.lexicon ?? CREATIVE_LEXICON);
    this.weights = {
      concept: options.conceptWeight ?? d.conceptWeight,
      parent: options.parentWeight ?? d.parentWeight,
      token: options.tokenWeight ?? d.tokenWeight,
    };
  }

  /** The concepts a text names (for tests and for explaining a recall). */
  conceptsOf(text: string): string[] {
    const found: string[] = [];
    this.visit(text, (feature) => {
      if (feature.startsWith('c:')) found.push(feature.slice(2));
    });
    return found;
  }

  embedOne(text: string): Float32Array {
    const vector = new Float32Array(this.dimensions);
    this.visit(text, (feature, weight) => {
      const hash = fnv1a(feature);
      vector[(hash & 0x7fffffff) % this.dimensions]! += hash & 0x80000000 ? -weight : weight;
    });
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

  private visit(text: string, emit: (feature: string, weight: number) => void): void {
    const { words, han, maxHanLength, parents } = this.compiled;
    const concept = (id: string) => {
      emit(`c:${id}`, this.weights.concept);
      const parent = parents.get(id);
      if (parent) emit(`c:${parent}`, this.weights.parent);
    };
    for (const token of tokenize(text)) {
      emit(`t:${token}`, this.weights.token);
      words.get(token)?.forEach(concept);
    }
    for (const match of text.normalize('NFKC').toLowerCase().matchAll(HAN_RUN)) {
      const chars = [...match[0]];
      for (let i = 0; i < chars.length;) {
        let length = Math.min(maxHanLength, chars.length - i);
        for (; length > 0; length -= 1) {
          const ids = han.get(chars.slice(i, i + length).join(''));
          if (ids) {
            ids.forEach(concept);
            break;
          }
        }
        i += Math.max(length, 1);
      }
    }
  }
}
