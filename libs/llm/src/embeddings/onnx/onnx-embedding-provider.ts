import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '@lomo/contracts';
import type { EmbeddingProvider, EmbeddingRequest } from '../../embedding-provider.port';
import { ModelError, ModelUnavailableError, throwIfAborted } from '../../model-errors';
import { detectLanguage } from '../../offline/language';
import { ONNX_MODELS, type OnnxModelSpec } from './onnx-models';
import { WordPieceTokenizer } from './wordpiece-tokenizer';

export type OnnxEmbeddingModel = 'zh' | 'en' | 'bilingual';

export interface OnnxEmbeddingProviderOptions {
  /** Where `npm run models:fetch` put the .onnx and tokenizer.json files (LOMO_EMBEDDING_MODEL_DIR). */
  directory: string;
  /**
   * `zh` (bge-small-zh, 512 dimensions) or `en` (bge-small-en, 384) embed every text with that one
   * model; `bilingual` (the default) embeds each document with both (896 dimensions, each half
   * weighted 1/√2) and a query with the model of its language only (the other half zero), so a
   * query is compared with every document in the space of the query's language, and a Chinese
   * query meets an English memory through the Chinese model (which knows some English).
   */
  model?: OnnxEmbeddingModel;
  /** ONNX Runtime threads per inference; 1 by default (the machines are shared). */
  threads?: number;
  /**
   * Texts per inference call; 1 by default: the quantized models scale activations over the whole
   * input tensor (dynamic quantization), so a text batched with others (and their padding) gets
   * a slightly different vector (cosine ~0.993 with its own); one at a time, a text's vector never
   * depends on its neighbours, so re-indexing gives the same vectors.
   */
  batchSize?: number;
  /** Longest input in tokens (the rest is cut); 128 by default, memories are short. */
  maxTokens?: number;
}

type OrtModule = typeof import('onnxruntime-node');
type Session = Awaited<ReturnType<OrtModule['InferenceSession']['create']>>;

interface Loaded {
  ort: OrtModule;
  session: Session;
  tokenizer: WordPieceTokenizer;
  spec: OnnxModelSpec;
}

export const ONNX_EMBEDDING_DEFAULTS = { model: 'bilingual', threads: 1, batchSize: 1, maxTokens: 128 } as const;

/** Whether `directory` holds the files `model` needs (what the bench and start-up check). */
export function onnxModelsPresent(directory: string, model: OnnxEmbeddingModel = 'bilingual'): boolean {
  const specs = model === 'bilingual' ? [ONNX_MODELS.zh, ONNX_MODELS.en] : [ONNX_MODELS[model]];
  return specs.every((s) => existsSync(join(directory, s.onnxFile)) && existsSync(join(directory, s.tokenizerFile)));
}

const isChinese = (text: string) => detectLanguage(text)?.startsWith('zh') === true;

/**
 * SEMANTIC vectors from local ONNX sentence embedders (bge-small v1.5, quantized), no network:
 * the files come from `npm run models:fetch`. The models load lazily on the first embedding;
 * a missing file is a ConfigError at construction, a model that fails to load or run a
 * ModelUnavailableError (retriable: a fetch may still be writing the file), an abort a
 * ModelAbortedError. Tokenization is the WordPiece tokenizer of this folder.
 */
export class OnnxEmbeddingProvider implements EmbeddingProvider {
  readonly name: string;
  readonly kind = 'semantic' as const;
  readonly dimensions: number;
  private readonly model: OnnxEmbeddingModel;
  private readonly options: Required<Omit<OnnxEmbeddingProviderOptions, 'model'>>;
  private readonly loading = new Map<'zh' | 'en', Promise<Loaded>>();

  constructor(options: OnnxEmbeddingProviderOptions) {
    this.model = options.model ?? ONNX_EMBEDDING_DEFAULTS.model;
    this.options = {
      directory: options.directory,
      threads: options.threads ?? ONNX_EMBEDDING_DEFAULTS.threads,
      batchSize: options.batchSize ?? ONNX_EMBEDDING_DEFAULTS.batchSize,
      maxTokens: options.maxTokens ?? ONNX_EMBEDDING_DEFAULTS.maxTokens,
    };
    const problems: Array<{ variable: string; message: string }> = [];
    if (!['zh', 'en', 'bilingual'].includes(this.model))
      problems.push({ variable: 'model', message: 'must be zh, en or bilingual' });
    for (const key of ['threads', 'batchSize', 'maxTokens'] as const) {
      const v = this.options[key];
      if (!Number.isInteger(v) || v < 1 || (key === 'maxTokens' && v > 512))
        problems.push({ variable: key, message: 'must be a positive integer (maxTokens at most 512)' });
    }
    for (const spec of problems.length > 0 ? [] : this.specs()) {
      for (const file of [spec.onnxFile, spec.tokenizerFile]) {
        if (!existsSync(join(this.options.directory ?? '', file)))
          problems.push({ variable: 'directory', message: `has no ${file} (run npm run models:fetch)` });
      }
    }
    if (problems.length > 0) {
      throw new ConfigError(
        `Invalid onnx embedding options: ${problems.map((p) => `${p.variable} ${p.message}`).join('; ')}`,
        problems,
      );
    }
    this.dimensions = this.specs().reduce((n, s) => n + s.dimensions, 0);
    this.name = `onnx:${this.specs()
      .map((s) => s.id)
      .join('+')}`;
  }

  /** Document vectors: every model's, concatenated (one model: just its vector). */
  async embed(request: EmbeddingRequest): Promise<Float32Array[]> {
    throwIfAborted(request.signal);
    if (request.texts.length === 0) return [];
    const specs = this.specs();
    const parts: Float32Array[][] = [];
    for (const spec of specs) parts.push(await this.run(spec.language, request.texts, request.signal));
    if (parts.length === 1) return parts[0]!;
    const scale = Math.SQRT1_2;
    return request.texts.map((_, i) => {
      const out = new Float32Array(this.dimensions);
      let at = 0;
      for (const part of parts) {
        const v = part[i]!;
        for (let j = 0; j < v.length; j += 1) out[at + j] = v[j]! * scale;
        at += v.length;
      }
      return out;
    });
  }

  /**
   * Query vectors: in `bilingual` mode the query's language model fills its half, the other half
   * stays zero, so the cosine with a document is that model's cosine scaled by 1/√2 for every
   * document alike; `querySimilarityScale` says so, for floors set on one model's cosine.
   */
  async embedQuery(request: EmbeddingRequest): Promise<Float32Array[]> {
    if (this.model !== 'bilingual') return this.embed(request);
    throwIfAborted(request.signal);
    const out = request.texts.map(() => new Float32Array(this.dimensions));
    for (const language of ['zh', 'en'] as const) {
      const at = language === 'zh' ? 0 : ONNX_MODELS.zh.dimensions;
      const which = request.texts.map((t, i) => ({ t, i })).filter(({ t }) => isChinese(t) === (language === 'zh'));
      if (which.length === 0) continue;
      const vectors = await this.run(
        language,
        which.map((w) => w.t),
        request.signal,
      );
      which.forEach(({ i }, k) => out[i]!.set(vectors[k]!, at));
    }
    return out;
  }

  /** Query-to-document cosines are this factor of the model's own cosine (1/√2 when bilingual). */
  get querySimilarityScale(): number {
    return this.model === 'bilingual' ? Math.SQRT1_2 : 1;
  }

  private specs(): OnnxModelSpec[] {
    return this.model === 'bilingual' ? [ONNX_MODELS.zh, ONNX_MODELS.en] : [ONNX_MODELS[this.model]];
  }

  private load(language: 'zh' | 'en'): Promise<Loaded> {
    let loaded = this.loading.get(language);
    if (!loaded) {
      loaded = this.open(ONNX_MODELS[language]);
      this.loading.set(language, loaded);
      // A failed load is tried again next time (the file may be complete by then).
      loaded.catch(() => this.loading.delete(language));
    }
    return loaded;
  }

  private async open(spec: OnnxModelSpec): Promise<Loaded> {
    try {
      const ort = (await import('onnxruntime-node')) as OrtModule;
      const tokenizer = new WordPieceTokenizer(
        JSON.parse(readFileSync(join(this.options.directory, spec.tokenizerFile), 'utf8')),
      );
      const session = await ort.InferenceSession.create(join(this.options.directory, spec.onnxFile), {
        intraOpNumThreads: this.options.threads,
        interOpNumThreads: 1,
        executionProviders: ['cpu'],
        graphOptimizationLevel: 'all',
      });
      return { ort, session, tokenizer, spec };
    } catch (error) {
      throw new ModelUnavailableError(`onnx embedder: cannot load ${spec.id}`, { model: spec.id }, error);
    }
  }

  /** Unit vectors of `texts` from one model, in order. */
  private async run(language: 'zh' | 'en', texts: readonly string[], signal?: AbortSignal): Promise<Float32Array[]> {
    const { ort, session, tokenizer, spec } = await this.load(language);
    const out: Float32Array[] = [];
    for (let i = 0; i < texts.length; i += this.options.batchSize) {
      throwIfAborted(signal);
      const batch = texts.slice(i, i + this.options.batchSize);
      const encoded = batch.map((t) => tokenizer.encode(t, Math.min(this.options.maxTokens, spec.maxTokens)).ids);
      const length = Math.max(...encoded.map((e) => e.length));
      const ids = new BigInt64Array(batch.length * length);
      const mask = new BigInt64Array(batch.length * length);
      encoded.forEach((e, r) =>
        e.forEach((id, c) => {
          ids[r * length + c] = BigInt(id);
          mask[r * length + c] = 1n;
        }),
      );
      const shape = [batch.length, length];
      let hidden: Float32Array;
      try {
        const result = await session.run({
          input_ids: new ort.Tensor('int64', ids, shape),
          attention_mask: new ort.Tensor('int64', mask, shape),
          token_type_ids: new ort.Tensor('int64', new BigInt64Array(ids.length), shape),
        });
        hidden = result.last_hidden_state!.data as Float32Array;
      } catch (error) {
        if (error instanceof ModelError) throw error;
        throw new ModelUnavailableError(`onnx embedder: ${spec.id} failed to run`, { model: spec.id }, error);
      }
      const d = spec.dimensions;
      for (let r = 0; r < batch.length; r += 1) {
        const v = new Float32Array(d);
        if (spec.pooling === 'cls') v.set(hidden.subarray(r * length * d, r * length * d + d));
        else {
          const n = encoded[r]!.length;
          for (let c = 0; c < n; c += 1) {
            const row = hidden.subarray((r * length + c) * d, (r * length + c + 1) * d);
            for (let j = 0; j < d; j += 1) v[j]! += row[j]! / n;
          }
        }
        out.push(unit(v));
      }
    }
    return out;
  }
}

function unit(v: Float32Array): Float32Array {
  let norm = 0;
  for (let i = 0; i < v.length; i += 1) norm += v[i]! * v[i]!;
  if (norm > 0) {
    const s = 1 / Math.sqrt(norm);
    for (let i = 0; i < v.length; i += 1) v[i]! *= s;
  }
  return v;
}
