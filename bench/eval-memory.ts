/**
 * `npm run eval:memory`: every labelled case of test/fixtures/memory/extraction-cases.jsonl
 * through the offline extraction rules and the extraction planner (libs/memory/src/extraction),
 * then precision and recall per decision type, the cases that failed, and one JSON line.
 *
 * Each case replays its earlier statements through the same extractor and planner (a fold of the
 * plans stands for the decider), then decides the new evidence. Cases with `raw` candidates stand
 * for the model path: those candidates, as a model might answer (malformed ones included), replace
 * the offline rules for the new evidence and go through the same validation.
 *
 * Floor (exit 1 below it): overall case accuracy at least ACCURACY_FLOOR (0.8) with the offline
 * rules. Measured when it was set: 0.905 (76 of 84): the 70 cases written with the rules all
 * pass, the 14 paraphrases written after them (`hard-*`, not tuned to) pass 6. The rules are
 * simple on purpose and miss paraphrases; the floor sits below the measure so that a regression
 * fails. Never raise the score by editing cases.
 */
import { loadMemoryCases } from './eval-memory/memory-cases';
import { runCase } from './eval-memory/run-case';
import { formatScore, scoreMemory } from './eval-memory/score-memory';

export const ACCURACY_FLOOR = 0.8;

function main(): void {
  const { cases, problems } = loadMemoryCases();
  if (problems.length > 0) {
    console.error(`eval:memory: the fixtures break the eval set's rules:\n  ${problems.join('\n  ')}`);
    process.exit(2);
  }
  const started = Date.now();
  const results = cases.map((c) => ({ case: c, predicted: runCase(c).predicted }));
  const score = scoreMemory(results);
  const chinese = cases.filter((c) => c.language !== 'en').length;
  const header = `eval:memory — ${cases.length} cases (${chinese} Chinese), offline extraction rules, ${Date.now() - started} ms`;
  console.log(formatScore(score, header));
  const line: Record<string, unknown> = { cases: score.cases };
  for (const d of ['create', 'refine', 'correct', 'confirm', 'ignore'] as const) {
    line[`precision_${d}`] = score.per[d].precision;
    line[`recall_${d}`] = score.per[d].recall;
  }
  for (const d of ['malformed', 'unsupported', 'conflicting', 'suppressed'] as const)
    line[`recall_${d}`] = score.per[d].recall;
  Object.assign(line, { accuracy: score.accuracy, floor: ACCURACY_FLOOR, passed: score.accuracy >= ACCURACY_FLOOR });
  console.log(JSON.stringify(line));
  if (score.accuracy < ACCURACY_FLOOR) {
    console.error(`eval:memory: accuracy ${score.accuracy} < the floor ${ACCURACY_FLOOR}`);
    process.exit(1);
  }
}

main();
