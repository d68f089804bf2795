import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TokenizerFileError, WordPieceTokenizer } from './wordpiece-tokenizer';

/**
 * Golden ids from Hugging Face `tokenizers` 0.23 (Python) on the bge-small-en-v1.5 and
 * bge-small-zh-v1.5 tokenizer.json files; the fixture keeps every vocabulary entry the greedy
 * matcher could try for these texts (all substrings of each word), with their real ids, so the
 * segmentation is the one the full vocabulary gives.
 */
const golden = JSON.parse(
  readFileSync(join(__dirname, '../../../../../test/fixtures/embeddings/wordpiece-golden.json'), 'utf8'),
) as Record<'en' | 'zh', { tokenizer: unknown; cases: Array<{ text: string; ids: number[] }> }>;

describe('WordPieceTokenizer', () => {
  for (const lang of ['en', 'zh'] as const) {
    describe(`${lang} (lowercase ${lang === 'en'})`, () => {
      const tokenizer = new WordPieceTokenizer(golden[lang].tokenizer);
      it.each(golden[lang].cases.map((c) => [c.text, c.ids] as const))(
        'encodes %j as the reference does',
        (text, ids) => {
          expect(tokenizer.encode(text).ids).toEqual(ids);
        },
      );
    });
  }

  it('truncates to maxLength with [CLS] and [SEP] kept', () => {
    const tokenizer = new WordPieceTokenizer(golden.zh.tokenizer);
    const full = tokenizer.encode('我们品牌的主色调是藏青色。');
    const cut = tokenizer.encode('我们品牌的主色调是藏青色。', 5);
    expect(cut.ids).toEqual([...full.ids.slice(0, 4), full.ids[full.ids.length - 1]]);
    expect(cut.truncated).toBe(true);
    expect(full.truncated).toBe(false);
  });

  it('refuses a tokenizer.json that is not WordPiece', () => {
    expect(() => new WordPieceTokenizer({ model: { type: 'BPE', vocab: {} } })).toThrow(TokenizerFileError);
    expect(() => new WordPieceTokenizer({ model: { type: 'WordPiece', vocab: { a: 0 } } })).toThrow(/\[UNK\]/);
  });
});
