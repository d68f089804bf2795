import { writtenLanguage } from './language-switches';

// A seeded generator, so a failure repeats.
let seed = 21;
const hex = (n: number) =>
  Array.from({ length: n }, () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return '0123456789abcdef'[seed % 16];
  }).join('');
const uuid = () => `${hex(8)}-${hex(4)}-4${hex(3)}-8${hex(3)}-${hex(12)}`;

describe('writtenLanguage', () => {
  it('reads an English reply that quotes ids, hashes and links as English, whatever letters they hold', () => {
    // given 2 000 replies quoting a random artefact id (a UUID's "de" or "a" read as French words)
    for (let i = 0; i < 2_000; i += 1) {
      const reply = `I updated the flow ${uuid()} and saved version 3 of poster_2.`;
      // then each is English
      expect([reply, writtenLanguage(reply)]).toEqual([reply, 'en']);
    }
    expect(writtenLanguage('Done: https://cdn.example.de/a/de/le.png, sha 3fa9de0c')).toBeUndefined();
  });

  it('keeps a Chinese reply with numbers Chinese, and a French one French', () => {
    expect(writtenLanguage('海报第3张已完成，文字已移到左下角')).toBe('zh');
    expect(writtenLanguage("J'ai terminé les trois affiches, elles sont dans le dossier de la campagne")).toBe('fr');
  });
});
