export { collaborationMetrics, metricFigures, IDEAL_FIGURES, type CollaborationMetrics } from './collaboration-metrics';
export type { CollaborationLog, ScenarioTruth, Finding, CountedMetric } from './collaboration-log';
export { isBareContinue } from './continue-prompts';
export { writtenLanguage } from './language-switches';
export { STALE_WRITE_CODES } from './stale-edits';
export { workspaceMetrics } from './workspace-metrics';
