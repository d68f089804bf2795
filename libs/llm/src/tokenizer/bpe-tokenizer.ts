import type { GptEncoding } from 'gpt-tokenizer/cjs/GptEncoding';
import { ChatTokenizer } from './chat-tokenizer';
import type { CountCacheLimits } from './count-cache';

export type BpeEncoding = 'o200k_base' | 'cl100k_base';

/**
 * Loaded on the first count, not at import: the rank tables take about 150 ms (o200k_base) and
 * 60 ms (cl100k_base) to load, and most processes (the API, the projector) never count a prompt.
 * A plain `require` keeps counting synchronous, which an `await import()` would not.
 */
const loaders: Record<BpeEncoding, () => GptEncoding> = {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  o200k_base: () => (require('gpt-tokenizer/cjs/encoding/o200k_base') as { default: GptEncoding }).default,
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  cl100k_base: () => (require('gpt-tokenizer/cjs/encoding/cl100k_base') as { default: GptEncoding }).default,
};

/**
 * Special-token markers in a prompt ("<|endoftext|>" written by a person or a tool) are counted
 * as the plain text the API tokenizes them as; the package's default would throw on them.
 */
const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

/** An OpenAI-family tokenizer (gpt-tokenizer, a pure-JS port of tiktoken's encodings). */
export class BpeTokenizer extends ChatTokenizer {
  readonly exact = true;
  private loaded: GptEncoding | undefined;

  constructor(
    readonly encoding: BpeEncoding,
    cacheLimits: Partial<CountCacheLimits> = {},
  ) {
    super(cacheLimits);
  }

  /** Whether the rank table is in memory yet (a test or a warm-up can tell). */
  get isLoaded(): boolean {
    return this.loaded !== undefined;
  }

  protected countText(text: string): number {
    this.loaded ??= loaders[this.encoding]();
    return this.loaded.countTokens(text, PLAIN_TEXT);
  }
}
