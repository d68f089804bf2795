import fc from 'fast-check';
import { makeCallId, turnEvents } from '@lomo/contracts';
import { summarizeLargeResult, SUMMARY_MAX_CHARS } from './result-summary';

const ref = 'a'.repeat(64);
const blobRef = { hash: ref, bytes: 1, contentType: 'application/json' };
const callId = makeCallId('22222222-2222-4222-8222-222222222222', 1, 0);

type Summary = {
  ref: string;
  totalChars: number;
  pageChars: number;
  pages: number;
  read: string;
  shape: unknown;
};
const summarize = (value: unknown, pageChars = 8_000) => {
  const json = JSON.stringify(value);
  return { json, summary: summarizeLargeResult(json, ref, pageChars) as Summary };
};

describe('summarizeLargeResult', () => {
  it("keeps a listing's shape: scalars, keys in order, the array's length and first entries", () => {
    const assets = Array.from({ length: 1_200 }, (_, i) => ({
      artifactId: `id-${i}`,
      kind: 'image',
      title: `Shot ${i} at dawn`,
      tags: ['harbour', 'dawn'],
    }));
    const { json, summary } = summarize({ total: 1_200, hasNextPage: false, artifacts: assets, cursor: 'c-1' });
    expect(summary).toEqual({
      ref,
      totalChars: json.length,
      pageChars: 8_000,
      pages: Math.ceil(json.length / 8_000),
      read: `Too large to show whole; this is its shape. result.read with this ref and page 1 to ${Math.ceil(json.length / 8_000)} returns the exact stored JSON text, 8000 characters a page.`,
      shape: {
        total: 1_200,
        hasNextPage: false,
        artifacts: [assets[0], assets[1], assets[2], '…(+1197 more, 1200 items)'],
        cursor: 'c-1',
      },
    });
    expect(JSON.stringify(summary).length).toBeLessThanOrEqual(SUMMARY_MAX_CHARS);
  });

  it('shows an array one entry longer than its first entries whole: a marker would cost as much', () => {
    const { summary } = summarize({
      tags: ['a', 'b', 'c', 'd'],
      more: ['a', 'b', 'c', 'd', 'e'],
      pad: 'x'.repeat(20_000),
    });
    expect(summary.shape).toMatchObject({ tags: ['a', 'b', 'c', 'd'], more: ['a', 'b', 'c', '…(+2 more, 5 items)'] });
  });

  it('counts pages in the page size it states', () => {
    const { json, summary } = summarize({ text: 'x'.repeat(100_000) }, 1_000);
    expect(summary).toMatchObject({ pageChars: 1_000, pages: Math.ceil(json.length / 1_000), totalChars: json.length });
    expect(summary.shape).toEqual({ text: `${'x'.repeat(160)}…(+${100_000 - 160} chars)` });
  });

  it('names the keys it leaves out of a wide object, and the size of what is nested too deep', () => {
    const wide = Object.fromEntries(
      Array.from({ length: 3_000 }, (_, i) => [`node_${i}`, { params: { a: { b: i } } }]),
    );
    const { summary } = summarize(wide);
    const shape = summary.shape as Record<string, unknown>;
    expect(Object.keys(shape).at(-1)).toBe('…');
    expect(shape['…']).toMatch(/^\+\d+ more keys: node_\d+, /);
    expect(Object.keys(shape)[0]).toBe('node_0');
    expect(JSON.stringify(summary).length).toBeLessThanOrEqual(SUMMARY_MAX_CHARS);
  });

  it('never cuts a character beyond U+FFFF in half', () => {
    const { summary } = summarize({ text: `${'x'.repeat(159)}😀${'y'.repeat(50_000)}` });
    const text = (summary.shape as { text: string }).text;
    expect(text.startsWith(`${'x'.repeat(159)}…(+`)).toBe(true);
    expect(text).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
  });

  it('is deterministic', () => {
    const value = { a: Array.from({ length: 5_000 }, (_, i) => ({ i, s: 'é'.repeat(i % 40) })) };
    expect(summarize(value).summary).toEqual(summarize(value).summary);
  });

  it('stays within its budget and records as a ToolCallCompleted result, whatever the JSON (property)', () => {
    const big = fc.oneof(
      fc.jsonValue({ maxDepth: 6 }),
      fc.array(fc.jsonValue({ maxDepth: 3 }), { minLength: 50, maxLength: 400 }),
      fc.dictionary(fc.string({ unit: 'binary', maxLength: 300 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 200 }),
      fc.string({ unit: 'binary', minLength: 1_000, maxLength: 20_000 }),
      // Escapes make a short string long in JSON.
      fc.string({ unit: fc.constantFrom('\u0001', '"', '\\', '\n'), minLength: 500, maxLength: 5_000 }),
    );
    fc.assert(
      fc.property(big, fc.integer({ min: 200, max: 32_000 }), (value, pageChars) => {
        const json = JSON.stringify(value);
        const summary = summarizeLargeResult(json, ref, pageChars);
        expect(JSON.stringify(summary).length).toBeLessThanOrEqual(SUMMARY_MAX_CHARS);
        expect(summary).toMatchObject({
          ref,
          totalChars: json.length,
          pages: Math.max(1, Math.ceil(json.length / pageChars)),
        });
        const completed = { callId, status: 'ok', result: summary, resultRef: blobRef };
        expect(turnEvents.ToolCallCompleted.safeParse(completed).error?.issues ?? []).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });
});
