import { closeOverHistory, type CommittedStep, type SegmentCover } from './second-hand-steps';

// A task of two turns: t1 steps 1–3, t2 steps 1–2. Each step's record names the segments its
// prompt showed; every step after what those cover was shown in full.
const step = (
  turnId: string,
  n: number,
  direct = false,
  segments: readonly string[] | undefined = [],
): CommittedStep => ({
  turnId,
  step: n,
  direct,
  ...(segments !== undefined ? { segments } : {}),
});
const names = (points: { turnId: string; step: number }[]) => points.map((p) => `${p.turnId}:${p.step}`);

describe('closeOverHistory: a forgetting excludes the steps that saw an excluded reply second-hand', () => {
  it('a later step that saw the excluded step in full is excluded too, and so is the one after it', () => {
    const steps = [step('t1', 1), step('t1', 2, true), step('t1', 3), step('t2', 1), step('t2', 2)];
    expect(names(closeOverHistory({ steps, segments: [], excludedBefore: new Set() }))).toEqual([
      't1:2',
      't1:3',
      't2:1',
      't2:2',
    ]);
  });

  it('steps before the one that relied on the forgotten content stay', () => {
    const steps = [step('t1', 1), step('t1', 2), step('t1', 3, true)];
    expect(names(closeOverHistory({ steps, segments: [], excludedBefore: new Set() }))).toEqual(['t1:3']);
  });

  it('a step that saw the excluded step only through a history segment summarizing it is excluded', () => {
    const segments: SegmentCover[] = [
      { segmentId: 's1', covers: { from: { turnId: 't1', step: 1 }, to: { turnId: 't1', step: 2 } } },
    ];
    // t2:1 showed segment s1 (covering t1:1–2) and t1:3 in full.
    const steps = [step('t1', 1), step('t1', 2, true), step('t1', 3), step('t2', 1, false, ['s1'])];
    const out = closeOverHistory({ steps, segments, excludedBefore: new Set() });
    expect(names(out)).toEqual(['t1:2', 't1:3', 't2:1']);
  });

  it('a merged segment that summarizes the excluded step among others carries it to the steps that show it', () => {
    // s3 merged the summaries of t1:1–t1:3; t2:2 showed only s3 and t2:1 in full.
    const segments: SegmentCover[] = [
      { segmentId: 's3', covers: { from: { turnId: 't1', step: 1 }, to: { turnId: 't1', step: 3 } } },
    ];
    const steps = [step('t1', 1, true), step('t1', 2), step('t1', 3), step('t2', 1), step('t2', 2, false, ['s3'])];
    expect(names(closeOverHistory({ steps, segments, excludedBefore: new Set() }))).toContain('t2:2');
    // The same prompt without the segment (a step that showed only what came after it) stays.
    const later: SegmentCover[] = [
      { segmentId: 's4', covers: { from: { turnId: 't2', step: 1 }, to: { turnId: 't2', step: 1 } } },
    ];
    const alone = [step('t1', 1, true), step('t2', 1, false, ['s3']), step('t2', 2, false, ['s4'])];
    // t2:1 showed s3 (over the excluded t1:1): excluded; t2:2 showed s4, which summarizes t2:1: excluded.
    expect(
      names(closeOverHistory({ steps: alone, segments: [...segments, ...later], excludedBefore: new Set() })),
    ).toEqual(['t1:1', 't2:1', 't2:2']);
  });

  it('a step committed before context accounting (no record of its segments) is taken to have seen every earlier step', () => {
    const segments: SegmentCover[] = [
      { segmentId: 's1', covers: { from: { turnId: 't1', step: 1 }, to: { turnId: 't1', step: 2 } } },
    ];
    const steps = [step('t1', 1, true), step('t1', 2), step('t1', 3, false, undefined)];
    // t1:2 saw t1:1 in full; t1:3 has no record: excluded as well.
    expect(names(closeOverHistory({ steps, segments, excludedBefore: new Set() }))).toEqual(['t1:1', 't1:2', 't1:3']);
    // The same step with a record showing only a segment after the excluded one stays.
    const after: SegmentCover = {
      segmentId: 's9',
      covers: { from: { turnId: 't1', step: 2 }, to: { turnId: 't1', step: 2 } },
    };
    const recorded = [step('t1', 1, true), step('t1', 2, false, ['s0']), step('t1', 3, false, ['s9'])];
    const s0: SegmentCover = {
      segmentId: 's0',
      covers: { from: { turnId: 't1', step: 1 }, to: { turnId: 't1', step: 1 } },
    };
    // t1:2 showed s0 (covering the excluded t1:1): excluded; t1:3 showed s9 over t1:2 (excluded now): excluded.
    expect(names(closeOverHistory({ steps: recorded, segments: [s0, after], excludedBefore: new Set() }))).toEqual([
      't1:1',
      't1:2',
      't1:3',
    ]);
  });

  it('a step an earlier forgetting already excluded does not spread: later steps saw its placeholder', () => {
    // t1:2 was excluded by an earlier forgetting; this one reaches it directly again (it also saw
    // a purged version). The steps after it were committed after the earlier exclusion.
    const steps = [step('t1', 1), step('t1', 2, true), step('t1', 3), step('t2', 1)];
    expect(names(closeOverHistory({ steps, segments: [], excludedBefore: new Set(['t1:2']) }))).toEqual(['t1:2']);
  });

  it('nothing relied on the forgotten content: nothing is excluded', () => {
    const steps = [step('t1', 1), step('t1', 2), step('t2', 1, false, undefined)];
    expect(closeOverHistory({ steps, segments: [], excludedBefore: new Set() })).toEqual([]);
  });
});
