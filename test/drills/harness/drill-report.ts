import type { ScenarioResult } from './run-scenario';

/** The summary keys issue 21 asks for, summed over scenarios, in this order. */
export const SUMMARY_KEYS = [
  'continue_prompts',
  'unnecessary_confirmations',
  'duplicate_generations',
  'duplicate_artifacts',
  'misroutes',
  'stale_edits',
  'forgotten_reappearing',
  'language_switches',
  'cost_over_budget',
] as const;

export type DrillSummary = { scenarios: number; passed: number } & Record<(typeof SUMMARY_KEYS)[number], number>;

export function summarize(results: readonly ScenarioResult[]): DrillSummary {
  const summary = { scenarios: results.length, passed: results.filter((r) => r.passed).length } as DrillSummary;
  for (const key of SUMMARY_KEYS)
    summary[key] = results.reduce((sum, r) => sum + (r.metrics === undefined ? 0 : r.metrics.figures[key]), 0);
  return summary;
}

/** One JSON line per scenario: its figures, pace, verdict and why. */
export function scenarioLine(r: ScenarioResult): Record<string, unknown> {
  return {
    scenario: r.name,
    status: r.status,
    model: r.model,
    completed: r.completed,
    passed: r.passed,
    ...(r.metrics === undefined
      ? {}
      : Object.fromEntries(SUMMARY_KEYS.map((key) => [key, r.metrics!.figures[key]] as const))),
    stalled_approvals: r.metrics?.figures.stalled_approvals ?? null,
    cost_spent_minor: r.metrics?.figures.cost_spent_minor ?? null,
    cost_approved_minor: r.metrics?.figures.cost_approved_minor ?? null,
    model_calls_per_artifact: r.metrics?.figures.model_calls_per_artifact ?? null,
    model_tokens: r.metrics?.figures.model_tokens ?? null,
    approval_to_progress_ms_median: r.metrics?.figures.approval_to_progress_ms_median ?? null,
    delivered_artifacts: r.metrics?.deliveredArtifacts ?? null,
    events: r.metrics?.events ?? null,
    clock_advanced_ms: r.clock.reduce((s, c) => s + c.advanceMs, 0),
    ...(r.faults.length > 0
      ? { faults: r.faults, kills: r.kills.length, kill_log: r.kills, fault_evidence: r.faultEvidence ?? null }
      : {}),
    ...(r.crashes.length > 0 ? { crashes: r.crashes } : {}),
    wall_ms: r.wallMs,
    ...(r.error !== undefined ? { error: r.error } : {}),
    ...(r.unmet.length > 0 ? { unmet: r.unmet } : {}),
    ...(r.offIdeal.length > 0 ? { off_ideal: r.offIdeal } : {}),
    ...(r.metrics !== undefined && r.metrics.findings.length > 0 ? { findings: r.metrics.findings } : {}),
    ...(r.gap !== undefined ? { gap: r.gap } : {}),
  };
}

const SHORT: Record<(typeof SUMMARY_KEYS)[number], string> = {
  continue_prompts: 'cont',
  unnecessary_confirmations: 'conf',
  duplicate_generations: 'dupGen',
  duplicate_artifacts: 'dupArt',
  misroutes: 'misr',
  stale_edits: 'stale',
  forgotten_reappearing: 'forgot',
  language_switches: 'lang',
  cost_over_budget: 'overBud',
};

/** The scenario × metric table a person reads in a terminal. */
export function table(results: readonly ScenarioResult[]): string {
  const header = [
    'scenario',
    'verdict',
    ...SUMMARY_KEYS.map((k) => SHORT[k]),
    'stalled',
    'calls/art',
    'tokens',
    'appr→prog ms',
    'spent (minor)',
    'wall s',
  ];
  const rows = results.map((r) => {
    const f = r.metrics?.figures;
    const verdict = r.passed ? 'pass' : r.status === 'known-gap' ? 'known-gap' : r.completed ? 'FAIL' : 'INCOMPLETE';
    return [
      r.name,
      verdict,
      ...SUMMARY_KEYS.map((k) => (f === undefined ? '-' : String(f[k]))),
      f === undefined ? '-' : String(f.stalled_approvals),
      f?.model_calls_per_artifact == null ? '-' : f.model_calls_per_artifact.toFixed(1),
      f === undefined ? '-' : String(f.model_tokens),
      f?.approval_to_progress_ms_median == null ? '-' : String(Math.round(f.approval_to_progress_ms_median)),
      f === undefined
        ? '-'
        : Object.entries(f.cost_spent_minor)
            .map(([c, v]) => `${v} ${c}`)
            .join(' ') || '0',
      (r.wallMs / 1000).toFixed(1),
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i])).join('  ');
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].map((l) => l.trimEnd()).join('\n');
}
