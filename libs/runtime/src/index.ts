export * from './runtime-options';
export * from './faults/fault-injector';
export * from './timing/scheduler';
export { RuntimeMetrics, type ToolCallStatus } from './metrics/runtime-metrics';
export { ContextBuilder, type ContextInput, type Prompt, type PromptLayer } from './context/context-builder';
export { ContextAssembler } from './context/context-assembler';
export { ExtractiveSummarizer, ModelSummarizer, type HistorySummarizer } from './context/summarizer';
export {
  FixedProfileSnapshot,
  FIXED_PROFILE,
  PROFILE_SNAPSHOT,
  type ProfileSnapshot,
  type ProfileView,
} from './context/profile-snapshot.port';
export {
  MEMORY_RECALL,
  NoMemoryRecall,
  type MemoryRecall,
  type RecallQuery,
  type RecalledMemory,
} from './context/memory-recall.port';
export { extractConstraints, constraintsInForce } from './context/constraints';
export { visibleDomains } from './context/visible-tools';
export { TOOL_NOT_VISIBLE, TOOL_STUBBED_IN_FORK } from './process/plan-ledger';
export { PromptArchive } from './context/prompt-archive';
export { SYSTEM_RULES } from './context/system-rules';
export { LEFT_OUT_BRIEF, LEFT_OUT_TITLE } from './context/describe-task';
export { planTurn } from './process/plan-turn';
export type { PlanView, ToolTraits, Authorization, LocalCallState } from './process/plan-view';
export type { RuntimeOutput, AppendIntent, FinishReason } from './process/runtime-output';
export { STEP_LIMIT_REACHED } from './process/plan-next-step';
export { CALL_DECLINED } from './process/plan-ledger';
export { budgetCheckpointIdFor, checkpointIdFor } from './process/derived-ids';
export { budgetCard, PLAN_QUOTER, type PaidWork, type PlanQuoter, type PricedWork } from './process/plan-budget';
export { TaskView } from './streams/task-view';
export { TurnView } from './streams/turn-view';
export { TurnSession } from './worker/turn-session';
export type { RuntimeDeps } from './worker/runtime-deps';
export { TaskWorker, type WakeRequest } from './worker/task-worker';
export { HeldTurns } from './worker/held-turns';
export { ActiveWorkIndex, ACTIVE_WORK_EVENT_TYPES } from './active-work/active-work-index';
export type { Finding, FindingKind } from './active-work/active-work-model';
export { Watchdog, type WatchdogOptions } from './watchdog/watchdog';
export {
  WakeUpConsumer,
  EXECUTOR_WAKE_GROUP,
  cancelGroupOf,
  type WakeUpConsumerOptions,
  type WakeTarget,
} from './wakeups/wake-up-consumer';
export { publishWakeUp } from './wakeups/publish-wake-up';
export type { CommandDeps, TaskCommandResult } from './commands/command-deps';
export { interruptTask, type InterruptRequest, type InterruptResult } from './commands/interrupt-task';
export { resumeTask } from './commands/resume-task';
export { updateTaskSummary, type UpdateTaskSummaryRequest } from './commands/update-task-summary';
export { summarizeTurn, SUMMARY_MAX_CHARS } from './summary/turn-summary';
export { resolveCheckpoint, type ResolveCheckpointRequest } from './commands/resolve-checkpoint';
export {
  changeChecklistItem,
  EvidenceRefusedError,
  planChecklist,
  updateBrief,
  type PlanAuthor,
} from './commands/plan-commands';
export { judgeEvidence, verifyEvidence, type EvidenceRefusal, type EvidenceVerdict } from './commands/verify-evidence';
export { createPlanTools, type PlanToolDeps } from './tools/plan-tools';
export {
  createResultTools,
  resultReadTool,
  RESULT_READ,
  ResultReadErrorCodes,
  type ResultToolDeps,
} from './tools/result-tools';
export { summarizeLargeResult, SUMMARY_MAX_CHARS as RESULT_SUMMARY_MAX_CHARS } from './tools/result-summary';
export { planContinuation, type ContinuationInput, type ContinuationLimits } from './process/plan-continuation';
export { ExecutorRuntime, type ExecutorRuntimeDeps } from './executor-runtime';
export { runtimeActor } from './events/new-events';
export { reclaimOwnTurns } from './worker/reclaim-own-turns';
export { PersistedWorkerId, WorkerIdInUseError, type PersistedWorkerIdOptions } from './identity/persisted-worker-id';
