import { DECISIONS, type Decision, type Expected, type MemoryCase } from './memory-cases';
import type { Predicted } from './run-case';

export interface ScoredCase {
  case: MemoryCase;
  predicted: Predicted[];
  correct: boolean;
  misses: string[];
}

export interface MemoryScore {
  cases: number;
  accuracy: number;
  per: Record<Decision, { precision: number | null; recall: number | null; predicted: number; expected: number }>;
  failed: ScoredCase[];
}

const round = (x: number) => Math.round(x * 1000) / 1000;
const ratio = (a: number, b: number) => (b === 0 ? null : round(a / b));

/** Whether a prediction answers an expectation: the decision, and origin/scope where labelled. */
const fits = (e: Expected, p: Predicted) =>
  p.decision === e.decision &&
  (e.origin === undefined || e.origin === p.origin) &&
  (e.scope === undefined || e.scope === p.scope);

/**
 * Pairs each expectation with a prediction: by candidate index when labelled (model-path cases),
 * else by subject, else (a bare "ignore": nothing worth keeping) with any ignoring prediction.
 */
function pair(expected: readonly Expected[], predicted: readonly Predicted[]) {
  const used = new Set<Predicted>();
  return expected.map((e) => {
    const open = predicted.filter((p) => !used.has(p));
    const same = open.filter((p) =>
      e.index !== undefined
        ? p.index === e.index
        : e.subject !== undefined
          ? p.subject === e.subject
          : p.decision === 'ignore',
    );
    const match = same.find((p) => fits(e, p)) ?? same[0];
    if (match) used.add(match);
    return { e, match, ok: match !== undefined && fits(e, match) };
  });
}

export function scoreMemory(results: readonly { case: MemoryCase; predicted: Predicted[] }[]): MemoryScore {
  const counts = Object.fromEntries(DECISIONS.map((d) => [d, { tp: 0, predicted: 0, expected: 0, hit: 0 }])) as Record<
    Decision,
    { tp: number; predicted: number; expected: number; hit: number }
  >;
  const failed: ScoredCase[] = [];
  let correctCases = 0;
  for (const r of results) {
    const pairs = pair(r.case.expected, r.predicted);
    const matched = new Set(pairs.filter((x) => x.ok).map((x) => x.match!));
    for (const p of r.predicted) {
      counts[p.decision].predicted += 1;
      if (matched.has(p)) counts[p.decision].tp += 1;
    }
    for (const x of pairs) {
      counts[x.e.decision].expected += 1;
      if (x.ok) counts[x.e.decision].hit += 1;
    }
    const extra = r.predicted.filter((p) => !pairs.some((x) => x.match === p));
    const misses = [
      ...pairs
        .filter((x) => !x.ok)
        .map((x) => `expected ${describe(x.e)}, got ${x.match ? describe(x.match) : 'nothing'}`),
      ...extra.map((p) => `unexpected ${describe(p)}`),
    ];
    const correct = misses.length === 0;
    if (correct) correctCases += 1;
    else failed.push({ case: r.case, predicted: r.predicted, correct, misses });
  }
  const per = Object.fromEntries(
    DECISIONS.map((d) => {
      const c = counts[d];
      return [
        d,
        {
          precision: ratio(c.tp, c.predicted),
          recall: ratio(c.hit, c.expected),
          predicted: c.predicted,
          expected: c.expected,
        },
      ];
    }),
  ) as MemoryScore['per'];
  return { cases: results.length, accuracy: round(correctCases / Math.max(1, results.length)), per, failed };
}

function describe(x: { subject?: string; index?: number; decision: string; origin?: string; scope?: string }): string {
  const where = x.subject ?? (x.index !== undefined && x.index >= 0 ? `#${x.index}` : '-');
  return `${x.decision}(${where}${x.origin ? `, ${x.origin}` : ''}${x.scope ? `, ${x.scope}` : ''})`;
}

export function formatScore(score: MemoryScore, header: string): string {
  const lines = [header, '', 'decision      precision  recall   predicted  expected'];
  for (const d of DECISIONS) {
    const p = score.per[d];
    if (p.predicted === 0 && p.expected === 0) continue;
    const f = (x: number | null) => (x === null ? '   -   ' : x.toFixed(3).padStart(7));
    lines.push(
      `${d.padEnd(12)}  ${f(p.precision)}    ${f(p.recall)}  ${String(p.predicted).padStart(9)}  ${String(p.expected).padStart(8)}`,
    );
  }
  lines.push('', `cases fully right: ${score.cases - score.failed.length}/${score.cases} (accuracy ${score.accuracy})`);
  for (const f of score.failed) lines.push(`  ✗ ${f.case.id}: ${f.misses.join('; ')}`);
  return lines.join('\n');
}
