import { continuePrompts } from './continue-prompts';
import { costOverBudget, type CostFigures } from './cost-over-budget';
import { deliveryPace, type DeliveryPace } from './delivery-pace';
import { duplicateArtifacts } from './duplicate-artifacts';
import { duplicateGenerations } from './duplicate-generations';
import { forgottenReappearing } from './forgotten-reappearing';
import { languageSwitches } from './language-switches';
import { misroutes } from './misroutes';
import { staleEdits } from './stale-edits';
import { unnecessaryConfirmations } from './unnecessary-confirmations';
import type { CollaborationLog, CountedMetric, ScenarioTruth } from './collaboration-log';

/** The metrics people feel (article §11.2–11.3), each with the occurrences that make it up. */
export interface CollaborationMetrics {
  continuePrompts: CountedMetric;
  unnecessaryConfirmations: CountedMetric;
  duplicateGenerations: CountedMetric;
  duplicateArtifacts: CountedMetric;
  misroutes: CountedMetric;
  staleEdits: CountedMetric;
  forgottenReappearing: CountedMetric;
  languageSwitches: CountedMetric;
  cost: CostFigures;
  pace: DeliveryPace;
}

/** Every metric of a recorded collaboration, from its log alone (and the scenario's truth). */
export async function collaborationMetrics(
  log: CollaborationLog,
  truth: ScenarioTruth = {},
): Promise<CollaborationMetrics> {
  return {
    continuePrompts: continuePrompts(log.events),
    unnecessaryConfirmations: unnecessaryConfirmations(log.events),
    duplicateGenerations: duplicateGenerations(log.events),
    duplicateArtifacts: duplicateArtifacts(log.events),
    misroutes: misroutes(log.events, truth),
    staleEdits: staleEdits(log.events),
    forgottenReappearing: await forgottenReappearing(log, truth),
    languageSwitches: languageSwitches(log.events),
    cost: costOverBudget(log.events),
    pace: deliveryPace(log.events),
  };
}

/** The ideal of every count (issue 21's drills gate on it; cost within the approved budget). */
export const IDEAL_FIGURES = {
  continue_prompts: 0,
  unnecessary_confirmations: 0,
  duplicate_generations: 0,
  duplicate_artifacts: 0,
  misroutes: 0,
  stale_edits: 0,
  forgotten_reappearing: 0,
  language_switches: 0,
  cost_over_budget: 0,
  stalled_approvals: 0,
} as const;

/** The summary figures, keys as the drills print them (0 is the ideal for each count). */
export function metricFigures(m: CollaborationMetrics) {
  return {
    continue_prompts: m.continuePrompts.count,
    unnecessary_confirmations: m.unnecessaryConfirmations.count,
    duplicate_generations: m.duplicateGenerations.count,
    duplicate_artifacts: m.duplicateArtifacts.count,
    misroutes: m.misroutes.count,
    stale_edits: m.staleEdits.count,
    forgotten_reappearing: m.forgottenReappearing.count,
    language_switches: m.languageSwitches.count,
    cost_over_budget: Object.values(m.cost.overMinor).reduce((a, b) => a + b, 0),
    cost_spent_minor: m.cost.spentMinor,
    cost_approved_minor: m.cost.approvedMinor,
    model_calls_per_artifact: m.pace.modelCallsPerArtifact,
    model_tokens: m.pace.modelTokens,
    approval_to_progress_ms_median: m.pace.approvalToProgressMsMedian,
    stalled_approvals: m.pace.stalledApprovals.length,
  };
}
