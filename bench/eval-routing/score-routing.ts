import { CLASSES, OUTCOMES, type Outcome, type RoutingCase } from './routing-cases';

/** What the router decided for one case, with task ids mapped back to the case's keys (null: a task it created). */
export interface RoutedCase {
  case: RoutingCase;
  /** `error`: the router threw instead of deciding (a bug to report, counted as a failure). */
  outcome: Outcome | 'error';
  task: string | null;
  reason?: string;
}

export const isCorrect = (r: RoutedCase) =>
  [r.case.expected, ...(r.case.accept ?? [])].some((e) => e.outcome === r.outcome && e.task === r.task);

/** The costly error: the message went into an existing task that is not the one it belongs to. */
export const isMisroute = (r: RoutedCase) => r.outcome === 'existing' && !isCorrect(r);

/** Asked the person when the answer was clear. */
export const isOverClarification = (r: RoutedCase) => r.outcome === 'clarify' && !isCorrect(r);

const ACTUAL = [...OUTCOMES, 'error'] as const;

const ratio = (n: number, of: number) => (of === 0 ? null : Math.round((n / of) * 1000) / 1000);

export interface RoutingScore {
  cases: number;
  accuracy: number | null;
  misroute_rate: number | null;
  over_clarification_rate: number | null;
  by_class: Record<string, { cases: number; accuracy: number | null }>;
  by_outcome: Record<string, { cases: number; accuracy: number | null }>;
  by_language: Record<string, { cases: number; accuracy: number | null }>;
  /** confusion[expected][actual] = count. */
  confusion: Record<Outcome, Record<Outcome | 'error', number>>;
  failed: RoutedCase[];
}

export function scoreRouting(results: readonly RoutedCase[]): RoutingScore {
  const group = (of: (r: RoutedCase) => string, names: readonly string[]) =>
    Object.fromEntries(
      names.map((name) => {
        const rs = results.filter((r) => of(r) === name);
        return [name, { cases: rs.length, accuracy: ratio(rs.filter(isCorrect).length, rs.length) }];
      }),
    );
  const confusion = Object.fromEntries(
    OUTCOMES.map((e) => [
      e,
      Object.fromEntries(
        ACTUAL.map((a) => [a, results.filter((r) => r.case.expected.outcome === e && r.outcome === a).length]),
      ),
    ]),
  ) as RoutingScore['confusion'];
  const languages = [...new Set(results.map((r) => r.case.language))].sort();
  return {
    cases: results.length,
    accuracy: ratio(results.filter(isCorrect).length, results.length),
    misroute_rate: ratio(results.filter(isMisroute).length, results.length),
    over_clarification_rate: ratio(results.filter(isOverClarification).length, results.length),
    by_class: group((r) => r.case.class, CLASSES),
    by_outcome: group((r) => r.case.expected.outcome, OUTCOMES),
    by_language: group((r) => r.case.language, languages),
    confusion,
    failed: results.filter((r) => !isCorrect(r)),
  };
}

/** The human-readable part of the report. */
export function formatScore(score: RoutingScore, header: string): string {
  const pct = (x: number | null) => (x === null ? '   -  ' : `${(x * 100).toFixed(1).padStart(5)}%`);
  const lines = [header, '', `overall   ${pct(score.accuracy)} of ${score.cases} cases`];
  lines.push(`misroutes ${pct(score.misroute_rate)} (sent to the wrong existing task)`);
  lines.push(`over-clarification ${pct(score.over_clarification_rate)} (asked when the answer was clear)`, '');
  for (const [title, rows] of [
    ['by class', score.by_class],
    ['by expected outcome', score.by_outcome],
    ['by language', score.by_language],
  ] as const) {
    lines.push(title);
    for (const [name, r] of Object.entries(rows)) lines.push(`  ${name.padEnd(14)} ${pct(r.accuracy)}  (${r.cases})`);
  }
  lines.push('', 'confusion (rows: expected, columns: actual)');
  lines.push(`  ${''.padEnd(12)}${ACTUAL.map((o) => o.padStart(12)).join('')}`);
  for (const e of OUTCOMES)
    lines.push(`  ${e.padEnd(12)}${ACTUAL.map((a) => String(score.confusion[e][a]).padStart(12)).join('')}`);
  lines.push('', `failed (${score.failed.length})`);
  for (const f of score.failed) {
    const want = `${f.case.expected.outcome}${f.case.expected.task ? `:${f.case.expected.task}` : ''}`;
    const got = `${f.outcome}${f.task ? `:${f.task}` : ''}`;
    lines.push(`  ${f.case.id} [${f.case.class}] expected ${want}, got ${got}${f.reason ? ` — ${f.reason}` : ''}`);
    lines.push(`      ${JSON.stringify(f.case.text)}`);
  }
  return lines.join('\n');
}
