import { pageCount, type JsonValue } from '@lomo/tools';
import { RESULT_READ } from './result-tools';

/** What a large result's summary may cost in the context, in characters of its JSON. */
export const SUMMARY_MAX_CHARS = 1_500;

/**
 * How much of the shape is shown, most generous first: the first level whose summary fits the
 * budget wins. The last ones show the top-level value alone, in a line, so one always fits.
 */
interface Detail {
  /** Containers nested deeper than this are named by their size only. */
  depth: number;
  /** First entries shown of an array. */
  items: number;
  /** Keys shown of an object, in their order. */
  keys: number;
  /** Characters shown of a string or a key. */
  chars: number;
}

const DETAILS: readonly Detail[] = [
  { depth: 4, items: 3, keys: 24, chars: 160 },
  { depth: 3, items: 2, keys: 16, chars: 80 },
  { depth: 2, items: 1, keys: 12, chars: 48 },
  { depth: 1, items: 1, keys: 8, chars: 32 },
  { depth: 0, items: 0, keys: 0, chars: 200 },
  // Escapes (a control character is six in JSON) can still overflow; these cannot.
  { depth: 0, items: 0, keys: 0, chars: 40 },
  { depth: 0, items: 0, keys: 0, chars: 0 },
];

/**
 * What the model sees of a result too large for the context (stored whole in the BlobStore):
 * the result's shape (top-level keys in order, scalars, array lengths, the first few entries of
 * arrays, strings cut with the count of what was left out) within SUMMARY_MAX_CHARS, and how to
 * read the exact stored JSON text back: its ref and its pages of `pageChars` characters.
 * Pure and deterministic: the same result always has the same summary, so prompts stay stable.
 */
export function summarizeLargeResult(json: string, ref: string, pageChars: number): JsonValue {
  const pages = pageCount(json.length, pageChars);
  const envelope = (shape: JsonValue): JsonValue => ({
    ref,
    totalChars: json.length,
    pageChars,
    pages,
    read: `Too large to show whole; this is its shape. ${RESULT_READ} with this ref and page 1 to ${pages} returns the exact stored JSON text, ${pageChars} characters a page.`,
    shape,
  });
  const value = parsed(json);
  let summary = envelope(null);
  for (const detail of DETAILS) {
    summary = envelope(value === undefined ? clip(json, detail.chars) : shapeOf(value, detail, 0));
    if (JSON.stringify(summary).length <= SUMMARY_MAX_CHARS) return summary;
  }
  return summary;
}

function shapeOf(value: JsonValue, detail: Detail, depth: number): JsonValue {
  if (typeof value === 'string') return clip(value, detail.chars);
  if (value === null || typeof value !== 'object') return value;
  if (depth >= detail.depth) return clip(outline(value), detail.chars);
  if (Array.isArray(value)) {
    // A marker for a single entry left out would cost about what the entry does: show it instead.
    const count = value.length === detail.items + 1 ? value.length : detail.items;
    const shown = value.slice(0, count).map((v) => shapeOf(v, detail, depth + 1));
    const left = value.length - shown.length;
    return left > 0 ? [...shown, `…(+${left} more, ${value.length} items)`] : shown;
  }
  const keys = Object.keys(value);
  const used = new Set<string>();
  const entries: Array<[string, JsonValue]> = keys
    .slice(0, detail.keys)
    .map((key) => [unique(used, clip(key, detail.chars)), shapeOf(value[key], detail, depth + 1)]);
  const rest = keys.slice(detail.keys);
  if (rest.length > 0)
    entries.push([unique(used, '…'), clip(`+${rest.length} more keys: ${rest.join(', ')}`, detail.chars)]);
  // fromEntries defines own properties, so even a "__proto__" key stays a key.
  return Object.fromEntries(entries) as JsonValue;
}

/** A container in one line: its size, and an object's first keys. */
const outline = (value: JsonValue[] | { [key: string]: JsonValue }): string => {
  if (Array.isArray(value)) return `[${value.length} items]`;
  const keys = Object.keys(value);
  return `{${keys.length} keys: ${keys.join(', ')}}`;
};

/** At most `chars` characters (never half a surrogate pair), then how many were left out. */
function clip(text: string, chars: number): string {
  if (text.length <= chars) return text;
  const code = text.charCodeAt(chars - 1);
  const end = code >= 0xd800 && code <= 0xdbff ? chars - 1 : chars;
  return `${text.slice(0, end)}…(+${text.length - end} chars)`;
}

/** A clipped key may meet another: the later one gets a number, so no entry is lost. */
function unique(used: Set<string>, key: string): string {
  let candidate = key;
  for (let n = 2; used.has(candidate); n += 1) candidate = `${key}#${n}`;
  used.add(candidate);
  return candidate;
}

function parsed(json: string): JsonValue | undefined {
  try {
    return JSON.parse(json) as JsonValue;
  } catch {
    return undefined;
  }
}
