import { documentRefusal, scanDocument } from './document-scan';

const limits = { maxTokens: 1_000, maxAliases: 50, maxDirectives: 50 };

describe('scanDocument', () => {
  it('counts aliases in selection sets only, not argument names, variables or object values', () => {
    const q = `query Q($n: Int = 3, $o: In = { a: 1, b: [{ c: 2 }] }) {
      first: tasks(first: $n, filter: { status: OPEN, nested: { deep: 1 } }) { edges { cursor } }
      t: task(id: "x") @include(if: true) { id  g: goal }
    }`;
    expect(scanDocument(q, 1_000)).toMatchObject({ aliases: 3, directives: 1 });
  });

  it('stops reading once past maxTokens, and refuses with TOO_MANY_TOKENS before anything else', () => {
    const huge = `{ ${'a '.repeat(100_000)}}`;
    const scan = scanDocument(huge, 1_000);
    expect(scan.tokens).toBe(1_001);
    expect(documentRefusal(scan, limits)).toMatchObject({ code: 'TOO_MANY_TOKENS', details: { maxTokens: 1_000 } });
  });

  it('refuses 1 000 aliases and 200 directives as written, and passes an ordinary query', () => {
    const aliases = `{ ${Array.from({ length: 1_000 }, (_, i) => `a${i}: me`).join(' ')} }`;
    expect(documentRefusal(scanDocument(aliases, 10_000), { ...limits, maxTokens: 10_000 })).toMatchObject({
      code: 'TOO_MANY_ALIASES',
      details: { aliases: 1_000, maxAliases: 50 },
    });
    const directives = `{ me ${'@include(if: true) '.repeat(200)}}`;
    expect(documentRefusal(scanDocument(directives, 10_000), { ...limits, maxTokens: 10_000 })).toMatchObject({
      code: 'TOO_MANY_DIRECTIVES',
      details: { directives: 200, maxDirectives: 50 },
    });
    expect(documentRefusal(scanDocument('{ me { userId } }', 1_000), limits)).toBeUndefined();
  });

  it('leaves a lexing error to the parser: the counts so far are returned', () => {
    expect(scanDocument('{ a: b "unterminated', 1_000)).toEqual({ tokens: 4, aliases: 1, directives: 0 });
  });
});
