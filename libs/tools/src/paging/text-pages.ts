/**
 * Pages of stored text for the tools that read it back (result.read, artifact.read), so both
 * count the same way. The unit is the UTF-16 code unit: a JavaScript string's length, of the
 * stored UTF-8 text once decoded. A boundary that would fall between the two halves of a
 * surrogate pair (an emoji, any character beyond U+FFFF) moves one unit back, so no page holds
 * half a character: that page is one shorter, the next one longer, and every page concatenated
 * in order is still exactly the stored text.
 */
export const PAGE_CHARS = {
  /** What a large result's summary counts its pages in, and what a read uses unless told. */
  default: 8_000,
  /** Two at the very least, so that a moved boundary never leaves a page empty. */
  min: 200,
  /** A page's text goes into the context whole (such reads are never stored again, see `returnsPage`). */
  max: 32_000,
} as const;

export interface TextSlice {
  /** Where the slice starts in the whole text, in UTF-16 code units. */
  offset: number;
  text: string;
}

/** Pages a text of this length has; an empty text has one, empty, page. */
export const pageCount = (totalChars: number, pageChars: number): number =>
  Math.max(1, Math.ceil(totalChars / pageChars));

/** Page `page` (from 1), or undefined past the last page. */
export function textPage(text: string, page: number, pageChars: number): TextSlice | undefined {
  if (!Number.isInteger(pageChars) || pageChars < 2) throw new RangeError('pageChars must be an integer of 2 or more');
  if (!Number.isInteger(page) || page < 1 || page > pageCount(text.length, pageChars)) return undefined;
  const start = boundary(text, (page - 1) * pageChars);
  const end = boundary(text, Math.min(text.length, page * pageChars));
  return { offset: start, text: text.slice(start, end) };
}

/**
 * `length` units from `offset`, cut at the end of the text, widened to whole characters: a start
 * inside a surrogate pair moves one back, an end inside one moves one on (so a span of one unit
 * on an emoji is the emoji, never empty). Undefined when `offset` is past the end (at the end: an
 * empty slice). A span that starts where the previous one ended never overlaps it.
 */
export function textRange(text: string, offset: number, length: number): TextSlice | undefined {
  if (!Number.isInteger(offset) || offset < 0 || offset > text.length) return undefined;
  const start = boundary(text, offset);
  const end = Math.min(text.length, offset + Math.max(0, length));
  return { offset: start, text: text.slice(start, splitsPair(text, end) ? end + 1 : end) };
}

/** The index itself, or one before it when it would split a surrogate pair. */
const boundary = (text: string, index: number): number => (splitsPair(text, index) ? index - 1 : index);

const splitsPair = (text: string, index: number): boolean =>
  index > 0 &&
  index < text.length &&
  isHighSurrogate(text.charCodeAt(index - 1)) &&
  isLowSurrogate(text.charCodeAt(index));

const isHighSurrogate = (unit: number) => unit >= 0xd800 && unit <= 0xdbff;
const isLowSurrogate = (unit: number) => unit >= 0xdc00 && unit <= 0xdfff;
