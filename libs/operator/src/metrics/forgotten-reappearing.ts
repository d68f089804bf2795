import {
  dataOf,
  finding,
  turnTasks,
  idOf,
  type CollaborationLog,
  type CountedMetric,
  type ScenarioTruth,
} from './collaboration-log';

const folded = (text: string) => text.toLowerCase().replace(/\s+/g, ' ');

/**
 * Forgotten information back in front of a model: every prompt stored after the first completed
 * forgetting (a runtime step's, a semantic routing decision's) is loaded and searched for each
 * text the person asked to forget (case and spacing folded). A prompt that cannot be loaded is
 * skipped (purged content is exactly what must be gone). Needs the log's prompt loader.
 */
export async function forgottenReappearing(log: CollaborationLog, truth: ScenarioTruth): Promise<CountedMetric> {
  const findings: CountedMetric['findings'] = [];
  const texts = (truth.forgottenTexts ?? []).map(folded).filter((t) => t.length > 0);
  if (texts.length === 0 || log.promptText === undefined) return { count: 0, findings };
  const turns = turnTasks(log.events);
  let forgotten = false;
  for (const e of log.events) {
    if (e.type === 'ForgettingCompleted') forgotten = true;
    if (!forgotten) continue;
    if (e.type !== 'ModelStepCommitted' && e.type !== 'RoutingDecided') continue;
    const ref = dataOf<{ promptRef?: unknown }>(e).promptRef;
    if (ref === undefined) continue;
    const prompt = await log.promptText(ref);
    if (prompt === null) continue;
    const shown = folded(prompt);
    const turnId = idOf(e.metadata.streamId, 'turn');
    for (const text of texts)
      if (shown.includes(text))
        findings.push(
          finding(e, turnId === null ? null : (turns.get(turnId) ?? null), `prompt quotes "${text.slice(0, 60)}"`),
        );
  }
  return { count: findings.length, findings };
}
