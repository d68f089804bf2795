import fc from 'fast-check';
import { pageCount, textPage, textRange } from './text-pages';

const allPages = (text: string, pageChars: number) =>
  Array.from({ length: pageCount(text.length, pageChars) }, (_, i) => textPage(text, i + 1, pageChars)!);

const splitsAPair = (slice: string) => /^[\udc00-\udfff]/.test(slice) || /[\ud800-\udbff]$/.test(slice);

describe('text pages', () => {
  it('counts pages of a stated size; an empty text has one empty page', () => {
    expect(pageCount(0, 10)).toBe(1);
    expect(pageCount(10, 10)).toBe(1);
    expect(pageCount(11, 10)).toBe(2);
    expect(textPage('', 1, 10)).toEqual({ offset: 0, text: '' });
    expect(textPage('', 2, 10)).toBeUndefined();
  });

  it('page n is the units [(n-1)·size, n·size), and nothing past the last page', () => {
    const text = 'abcdefghij' + 'klmno';
    expect(allPages(text, 10)).toEqual([
      { offset: 0, text: 'abcdefghij' },
      { offset: 10, text: 'klmno' },
    ]);
    expect(textPage(text, 3, 10)).toBeUndefined();
    expect(textPage(text, 0, 10)).toBeUndefined();
  });

  it('moves a boundary inside a surrogate pair one unit back, so no page holds half an emoji', () => {
    // 'ab' then 😀 (two units) at indices 2 and 3: a boundary at 3 moves to 2.
    const text = 'ab😀cdef';
    expect(allPages(text, 3)).toEqual([
      { offset: 0, text: 'ab' },
      { offset: 2, text: '😀cd' },
      { offset: 6, text: 'ef' },
    ]);
    expect(textRange(text, 3, 2)).toEqual({ offset: 2, text: '😀c' });
  });

  it('widens a span to whole characters: a one-unit span on an emoji is the emoji', () => {
    const text = 'ab😀cdef';
    expect(textRange(text, 2, 1)).toEqual({ offset: 2, text: '😀' });
    expect(textRange(text, 1, 2)).toEqual({ offset: 1, text: 'b😀' });
    expect(textRange(text, 3, 1)).toEqual({ offset: 2, text: '😀' });
  });

  it('a range is cut at the end of the text; an offset past the end is no range', () => {
    expect(textRange('hello', 3, 100)).toEqual({ offset: 3, text: 'lo' });
    expect(textRange('hello', 5, 10)).toEqual({ offset: 5, text: '' });
    expect(textRange('hello', 6, 1)).toBeUndefined();
  });

  it('every page in order is exactly the text, and no page splits a pair (property)', () => {
    const unit = fc.oneof(
      fc.constantFrom('a', 'é', '中', '\n', '"', '\\'),
      fc.constantFrom('😀', '𝄞', '🇫🇷'),
      fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)),
    );
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 400 }), fc.integer({ min: 2, max: 50 }), (units, pageChars) => {
        const text = units.join('');
        const pages = allPages(text, pageChars);
        expect(pages.map((p) => p.text).join('')).toBe(text);
        // Lone surrogates of the input aside, a page never starts or ends inside a pair.
        for (const page of pages) {
          const before = text.charCodeAt(page.offset - 1);
          const at = text.charCodeAt(page.offset);
          expect(before >= 0xd800 && before <= 0xdbff && at >= 0xdc00 && at <= 0xdfff).toBe(false);
        }
        expect(pages.every((p) => p.text.length > 0 || text.length === 0)).toBe(true);
      }),
    );
  });

  it('spans each starting where the last ended join to exactly the text, none empty before the end (property)', () => {
    const unit = fc.oneof(fc.constantFrom('a', 'é', '中'), fc.constantFrom('😀', '𝄞', '🇫🇷'));
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 300 }), fc.integer({ min: 1, max: 40 }), (units, length) => {
        const text = units.join('');
        let joined = '';
        while (joined.length < text.length) {
          const span = textRange(text, joined.length, length)!;
          expect(span.offset).toBe(joined.length);
          expect(span.text.length).toBeGreaterThan(0);
          expect(splitsAPair(span.text)).toBe(false);
          joined += span.text;
        }
        expect(joined).toBe(text);
      }),
    );
  });

  it('pages of well-formed text are well-formed', () => {
    const text = '😀'.repeat(50);
    expect(allPages(text, 7).some((p) => splitsAPair(p.text))).toBe(false);
  });
});
