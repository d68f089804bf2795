import { DEFAULT_OPENAI_MODEL, type ModelProviderConfig } from '../create-model-provider';
import type { TokenEncoding, Tokenizer } from '../tokenizer.port';
import { BpeTokenizer } from './bpe-tokenizer';
import { EstimateTokenizer } from './estimate-tokenizer';

// Families by name, as tiktoken maps them: the 2024+ models (gpt-4o, 4.1, 4.5, 5, the o-series,
// gpt-oss) use o200k_base; gpt-4, gpt-3.5 and the embedding models use cl100k_base.
const O200K = /^(?:gpt-4o|chatgpt-4o|gpt-4\.[15]|gpt-5|gpt-oss|codex-mini|o[1-9])(?:$|[-.:_])/;
const CL100K = /^(?:gpt-4|gpt-3\.5|gpt-35|text-embedding-(?:ada-002|3-small|3-large))(?:$|[-:_])/;

/**
 * The encoding a model name implies, or the estimate for a model we know nothing of. Routers'
 * prefixes ("openai/gpt-4o") and fine-tune names ("ft:gpt-4o-mini:org::id") name their base model.
 */
export function encodingForModel(model: string): TokenEncoding {
  const name = model.trim().toLowerCase().replace(/^ft:/, '').split('/').pop() ?? '';
  if (O200K.test(name)) return 'o200k_base';
  if (CL100K.test(name)) return 'cl100k_base';
  return 'estimate';
}

// One instance per encoding in the process, so the count cache is shared by every caller and
// the rank table is loaded at most once.
const shared = new Map<TokenEncoding, Tokenizer>();

export function tokenizerForEncoding(encoding: TokenEncoding): Tokenizer {
  let tokenizer = shared.get(encoding);
  if (tokenizer === undefined) {
    tokenizer = encoding === 'estimate' ? new EstimateTokenizer() : new BpeTokenizer(encoding);
    shared.set(encoding, tokenizer);
  }
  return tokenizer;
}

export function tokenizerForModel(model: string): Tokenizer {
  return tokenizerForEncoding(encodingForModel(model));
}

/**
 * The tokenizer of the configured model: the model's encoding for the openai provider (any
 * OpenAI-compatible endpoint: a model of another family gets the estimate), the estimate for the
 * offline and scripted providers, whose "tokens" are the estimate too (their usage says so).
 */
export function tokenizerFor(config: Pick<ModelProviderConfig, 'provider' | 'model'> = {}): Tokenizer {
  if ((config.provider ?? 'offline') !== 'openai') return tokenizerForEncoding('estimate');
  return tokenizerForModel(config.model ?? DEFAULT_OPENAI_MODEL);
}
