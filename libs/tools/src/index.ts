export * from './tool.port';
export * from './tool-errors';
export * from './tool-results';
export { PAGE_CHARS, pageCount, textPage, textRange, type TextSlice } from './paging/text-pages';
// Registry
export { ToolRegistry, type PreparedCall, type PrepareOutcome } from './registry/tool-registry';
export { parseToolArguments, type ParsedArguments } from './registry/tool-arguments';
export { toolSpecOf, type ToolSpec as ModelToolSpec } from './registry/tool-spec';
export { TOOL_NAME_PATTERN } from './registry/validate-definition';
// Authorization
export {
  authorizeCall,
  requiresApproval,
  type ApprovedCalls,
  type AuthorizationDecision,
  type AuthorizationRequest,
} from './authorization/authorize-call';
// Async completions
export {
  appendToolCompletion,
  publishCompletionWake,
  toolCompletionEventId,
  TOOL_COMPLETION_NAMESPACE,
  type AsyncCallRef,
  type CompletionOutcome,
} from './async/tool-completion';
// Starter tools
export { createStarterTools, type StarterToolDeps, type ToolDecorator } from './starter/create-starter-tools';
export * from './starter/notes/notes-store.port';
export { SqliteNotesStore, noteIdFor } from './starter/notes/sqlite-notes-store';
export { createNoteTool, listNotesTool, deleteNoteTool, appendLineTool } from './starter/notes/notes-tools';
export { taskHistoryTool, type HistoryReader } from './starter/history/task-history-tool';
export { compactEvent } from './starter/history/compact-event';
export * from './starter/export/export-job.port';
export { ExportJobMissingError } from './starter/export/export-errors';
export { SqliteExportJobStore } from './starter/export/sqlite-export-job-store';
export { MongoNotesStore, type MongoNotesStoreOptions } from './mongodb/mongo-notes-store';
export { MongoExportJobStore, type MongoExportJobStoreOptions } from './mongodb/mongo-export-job-store';
export { ToolStoreUnavailableError } from './mongodb/mongo-tool-errors';
export {
  ExportJobRunner,
  EXPORT_RUNNER_ACTOR,
  DEFAULT_EXPORT_DURATION_MS,
  exportJobIdFor,
  type ExportJobRunnerOptions,
  type ExportRunnerHooks,
} from './starter/export/export-job-runner';
export { exportDocumentTool, type ExportSubmitter } from './starter/export/export-document-tool';
export { renderExport, type RenderedExport } from './starter/export/render-export';
export { systemTimer, type Timer, type CancelTimer } from './starter/export/timer';
export {
  openToolsDatabase,
  DEFAULT_TOOLS_BUSY_TIMEOUT_MS,
  type ToolsDatabaseOptions,
} from './sqlite/open-tools-database';
