import type { ExpectedRevision } from '@lomo/contracts';
import { assertExpectedRevision, expectationHolds, impliedFirstRevision } from './append-request';

describe('expected revision rules', () => {
  it.each<[ExpectedRevision, number, boolean]>([
    ['any', -1, true],
    ['any', 3, true],
    ['no_stream', -1, true],
    ['no_stream', 0, false],
    ['stream_exists', -1, false],
    ['stream_exists', 0, true],
    [2, 2, true],
    [2, 1, false],
    [2, 3, false],
    [0, -1, false],
  ])('%p against last revision %p holds: %p', (expected, current, holds) => {
    expect(expectationHolds(expected, current)).toBe(holds);
  });

  it('pins the first revision of a repeat only for exact expectations', () => {
    expect([
      impliedFirstRevision('no_stream'),
      impliedFirstRevision(4),
      impliedFirstRevision('any'),
      impliedFirstRevision('stream_exists'),
    ]).toEqual([0, 5, undefined, undefined]);
  });

  it.each([-1, 1.5, Number.NaN, 'latest'])('refuses %p as an expected revision', (bad) => {
    expect(() => assertExpectedRevision(bad as ExpectedRevision)).toThrow(
      expect.objectContaining({ code: 'VALIDATION_FAILED' }),
    );
  });
});
