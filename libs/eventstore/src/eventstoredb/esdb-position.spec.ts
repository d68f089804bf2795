import fc from 'fast-check';
import { comparePositions, formatPosition, isAfter, parseFromPosition, parsePosition } from './esdb-position';

const TWO_53 = 1n << 53n;
const MAX_U64 = (1n << 64n) - 1n;
// Uniform draws almost never collide, so boundary values are mixed in to hit equal commits.
const u64 = fc.oneof(fc.bigInt({ min: 0n, max: MAX_U64 }), fc.constantFrom(0n, TWO_53, TWO_53 + 1n, MAX_U64));

describe('EventStoreDB positions', () => {
  it('print commit and prepare in decimal, exactly, beyond 2^53', () => {
    // 2^53 + 1 is the first integer a Number cannot hold: a Number round trip would print ...992.
    const position = { commit: TWO_53 + 1n, prepare: MAX_U64 };
    expect(formatPosition(position)).toBe('9007199254740993:18446744073709551615');
    expect(parsePosition('9007199254740993:18446744073709551615')).toEqual(position);
  });

  it('round-trip every pair of unsigned 64-bit values exactly', () => {
    fc.assert(
      fc.property(u64, u64, (commit, prepare) => {
        expect(parsePosition(formatPosition({ commit, prepare }))).toEqual({ commit, prepare });
      }),
    );
  });

  it.each([
    ['a SQLite position', '42'],
    ['an empty string', ''],
    ['three parts', '1:2:3'],
    ['a negative part', '-1:0'],
    ['a leading zero (two spellings of one position)', '01:1'],
    ['a fraction', '1.5:2'],
    ['a part past 2^64 - 1', `${MAX_U64 + 1n}:0`],
    ['spaces', '1: 2'],
  ])('refuse %s with VALIDATION_FAILED', (_name, text) => {
    expect(() => parsePosition(text, 'fromPosition')).toThrow(
      expect.objectContaining({
        code: 'VALIDATION_FAILED',
        issues: [expect.objectContaining({ path: 'fromPosition' })],
      }),
    );
  });

  it('order by commit, then prepare, even where Numbers would compare equal', () => {
    expect(comparePositions({ commit: TWO_53, prepare: 5n }, { commit: TWO_53 + 1n, prepare: 0n })).toBe(-1);
    expect(comparePositions({ commit: TWO_53, prepare: TWO_53 + 1n }, { commit: TWO_53, prepare: TWO_53 })).toBe(1);
    expect(comparePositions({ commit: 7n, prepare: 7n }, { commit: 7n, prepare: 7n })).toBe(0);
    fc.assert(
      fc.property(u64, u64, u64, u64, (a, b, c, d) => {
        const expected = a !== c ? (a < c ? -1 : 1) : b !== d ? (b < d ? -1 : 1) : 0;
        expect(comparePositions({ commit: a, prepare: b }, { commit: c, prepare: d })).toBe(expected);
      }),
    );
  });

  it("read 'start' and no position as before the first event", () => {
    expect(parseFromPosition('start')).toBeUndefined();
    expect(parseFromPosition(undefined)).toBeUndefined();
    expect(parseFromPosition('3:3')).toEqual({ commit: 3n, prepare: 3n });
    expect(isAfter({ commit: 0n, prepare: 0n }, undefined)).toBe(true);
    expect(isAfter({ commit: 3n, prepare: 3n }, { commit: 3n, prepare: 3n })).toBe(false);
  });
});
