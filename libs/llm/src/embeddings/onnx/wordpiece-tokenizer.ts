/**
 * BERT's WordPiece tokenizer as Hugging Face `tokenizers` runs it from a `tokenizer.json`
 * (BertNormalizer, BertPreTokenizer, WordPiece, the [CLS] … [SEP] template), enough to feed the
 * BERT-family sentence embedders (bge-small-en/zh) without a native dependency:
 * - normalizer: clean text (control characters dropped, every whitespace a space), spaces around
 *   each CJK ideograph, accents stripped (NFD without combining marks) when the file asks for it
 *   or, unset, when it lowercases, then lowercasing when the file asks for it;
 * - pre-tokenizer: split on whitespace, each punctuation character a word of its own;
 * - model: greedy longest match from the left with `##` continuations; a word with no full
 *   segmentation, or longer than `max_input_chars_per_word`, is one [UNK];
 * - post-processing: [CLS] tokens [SEP], truncated so the whole fits `maxLength`.
 * Tested against ids from the reference implementation (wordpiece-tokenizer.spec.ts).
 */
export interface WordPieceEncoding {
  ids: number[];
  /** true where the input was cut at maxLength. */
  truncated: boolean;
}

interface TokenizerJson {
  normalizer?: {
    type?: string;
    clean_text?: boolean;
    handle_chinese_chars?: boolean;
    strip_accents?: boolean | null;
    lowercase?: boolean;
  } | null;
  pre_tokenizer?: { type?: string } | null;
  model?: {
    type?: string;
    unk_token?: string;
    continuing_subword_prefix?: string;
    max_input_chars_per_word?: number;
    vocab?: Record<string, number>;
  };
}

/** Why a tokenizer.json cannot be used (wrong model type, missing special tokens). */
export class TokenizerFileError extends Error {
  override readonly name = 'TokenizerFileError';
}

export class WordPieceTokenizer {
  private readonly vocab: Map<string, number>;
  private readonly unk: number;
  private readonly cls: number;
  private readonly sep: number;
  private readonly prefix: string;
  private readonly maxChars: number;
  private readonly cleanText: boolean;
  private readonly chineseChars: boolean;
  private readonly stripAccents: boolean;
  private readonly lowercase: boolean;

  constructor(json: unknown) {
    const file = json as TokenizerJson;
    const model = file?.model;
    if (!model || model.type !== 'WordPiece' || typeof model.vocab !== 'object' || model.vocab === null) {
      throw new TokenizerFileError('tokenizer.json: not a WordPiece model with a vocabulary');
    }
    if (file.normalizer && file.normalizer.type !== 'BertNormalizer') {
      throw new TokenizerFileError(`tokenizer.json: normalizer ${String(file.normalizer.type)} is not supported`);
    }
    if (file.pre_tokenizer && file.pre_tokenizer.type !== 'BertPreTokenizer') {
      throw new TokenizerFileError(`tokenizer.json: pre-tokenizer ${String(file.pre_tokenizer.type)} is not supported`);
    }
    this.vocab = new Map(Object.entries(model.vocab));
    const special = (token: string) => {
      const id = this.vocab.get(token);
      if (id === undefined) throw new TokenizerFileError(`tokenizer.json: no ${token} in the vocabulary`);
      return id;
    };
    this.unk = special(model.unk_token ?? '[UNK]');
    this.cls = special('[CLS]');
    this.sep = special('[SEP]');
    this.prefix = model.continuing_subword_prefix ?? '##';
    this.maxChars = model.max_input_chars_per_word ?? 100;
    const n = file.normalizer ?? {};
    this.cleanText = n.clean_text ?? true;
    this.chineseChars = n.handle_chinese_chars ?? true;
    this.lowercase = n.lowercase ?? true;
    this.stripAccents = n.strip_accents ?? this.lowercase;
  }

  get vocabularySize(): number {
    return this.vocab.size;
  }

  /** Ids with [CLS] and [SEP], at most `maxLength` of them (512 for BERT). */
  encode(text: string, maxLength = 512): WordPieceEncoding {
    const ids: number[] = [this.cls];
    const room = Math.max(0, maxLength - 2);
    let truncated = false;
    outer: for (const word of this.preTokenize(this.normalize(text))) {
      for (const id of this.wordPiece(word)) {
        if (ids.length - 1 >= room) {
          truncated = true;
          break outer;
        }
        ids.push(id);
      }
    }
    ids.push(this.sep);
    return { ids, truncated };
  }

  /** The normalizer's output (exposed for tests). */
  normalize(text: string): string {
    let out = '';
    for (const ch of text) {
      const cp = ch.codePointAt(0)!;
      if (this.cleanText) {
        if (cp === 0 || cp === 0xfffd || isControl(ch)) continue;
        if (isWhitespace(ch)) {
          out += ' ';
          continue;
        }
      }
      out += this.chineseChars && isChineseChar(cp) ? ` ${ch} ` : ch;
    }
    if (this.stripAccents) out = out.normalize('NFD').replace(/\p{Mn}/gu, '');
    if (this.lowercase) out = out.toLowerCase();
    return out;
  }

  private *preTokenize(text: string): Generator<string> {
    for (const chunk of text.split(/\s+/u)) {
      if (chunk === '') continue;
      let word = '';
      for (const ch of chunk) {
        if (isPunctuation(ch)) {
          if (word !== '') yield word;
          word = '';
          yield ch;
        } else word += ch;
      }
      if (word !== '') yield word;
    }
  }

  private wordPiece(word: string): number[] {
    const chars = [...word];
    if (chars.length > this.maxChars) return [this.unk];
    const pieces: number[] = [];
    for (let start = 0; start < chars.length;) {
      let end = chars.length;
      let found: number | undefined;
      for (; end > start; end -= 1) {
        const piece = (start > 0 ? this.prefix : '') + chars.slice(start, end).join('');
        found = this.vocab.get(piece);
        if (found !== undefined) break;
      }
      if (found === undefined) return [this.unk];
      pieces.push(found);
      start = end;
    }
    return pieces;
  }
}

function isWhitespace(ch: string): boolean {
  return ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r' || /\p{Zs}/u.test(ch);
}

function isControl(ch: string): boolean {
  if (ch === '\t' || ch === '\n' || ch === '\r') return false;
  return /\p{Cc}|\p{Cf}/u.test(ch);
}

/** ASCII symbols count as punctuation as in BERT (`$`, `+`, `^`, …), then Unicode's P* classes. */
function isPunctuation(ch: string): boolean {
  const cp = ch.codePointAt(0)!;
  if ((cp >= 33 && cp <= 47) || (cp >= 58 && cp <= 64) || (cp >= 91 && cp <= 96) || (cp >= 123 && cp <= 126)) {
    return true;
  }
  return /\p{P}/u.test(ch);
}

/** The CJK Unified Ideographs blocks BERT splits one by one (not kana or hangul). */
export function isChineseChar(cp: number): boolean {
  return (
    (cp >= 0x4e00 && cp <= 0x9fff) ||
    (cp >= 0x3400 && cp <= 0x4dbf) ||
    (cp >= 0x20000 && cp <= 0x2a6df) ||
    (cp >= 0x2a700 && cp <= 0x2b73f) ||
    (cp >= 0x2b740 && cp <= 0x2b81f) ||
    (cp >= 0x2b820 && cp <= 0x2ceaf) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0x2f800 && cp <= 0x2fa1f)
  );
}
