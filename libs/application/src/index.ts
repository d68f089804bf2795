// The application layer: the command handlers (each through @lomo/command-handling's one decider
// command handler) and the Nest modules that the apps compose (router, executor, projector, task
// commands, messages).
export * from './router';
export * from './projector';
export { embeddingProviderFrom } from './routing-read/routing-read.providers';
export { TaskCommandsModule } from './tasks/task-commands.module';
export { StopTask, PauseTask, ResumeTask, ResolveCheckpoint } from './tasks/task-commands';
export {
  EditBrief,
  EditChecklist,
  SetChecklistItemStatus,
  SetAutonomy,
  ApproveTaskPlanBudget,
  type PersonOnTask,
  type PlannedItem,
  type PlanWriteResult,
  type PlanBudgetResult,
} from './tasks/plan-commands';
export { WithdrawMessage, ReplaceMessage, ArchiveTask, type TaskWriteResult } from './tasks/inbox-commands';
export {
  MoveMessage,
  MergeTasks,
  UpgradeTask,
  UpdateTaskSummary,
  type MoveMessageResult,
  type MergeTasksResult,
  type CorrectionResult,
} from './tasks/correction-commands';
export { MessagesModule } from './messages/messages.module';
export { AnswerClarification, type ClarificationChoice } from './messages/answer-clarification.command';
export { messageLanguage } from './messages/message-language';
export {
  ReceiveUserMessage,
  type MessageTarget,
  type ReceiveUserMessageResult,
} from './messages/receive-user-message.command';
export { ExecutorModule, type ExecutorModuleOptions } from './executor/executor.module';
export { EXECUTOR_RUNTIME, RUNTIME_OPTIONS, STARTER_TOOLS, COMMAND_DEPS } from './executor/executor-tokens';
export { starterToolSpecs, type StarterTools } from './executor/starter-tools.provider';
export { runtimeOptionsFromConfig } from './executor/runtime-options-from-config';
export * from './workspace';
export * from './generation';
export * from './memory-worker';
export * from './memory';
export { modelProviderFrom, tokenizerFromConfig } from './model-provider-from-config';
