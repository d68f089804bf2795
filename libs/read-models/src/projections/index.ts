export * from './engine/change-notice';
export * from './engine/errors';
export { ownershipViolations, type OwnershipViolation } from './engine/field-ownership';
export { evolveDocument } from './engine/evolve-document';
export { asKnownEvent, type KnownEvent, type KnownEventOf, type KnownEventType } from './engine/known-event';
export {
  ALIASES_COLLECTION,
  CHECKPOINTS_COLLECTION,
  isCollectionOf,
  parsePhysical,
  physicalCollection,
  rebuildCollection,
  streamsCollection,
  type PhysicalName,
} from './engine/physical-names';
export type { AppliedStreamDocument } from './engine/applied-streams';
export { ProjectionAliases, type ProjectionAliasDocument } from './engine/projection-aliases';
export {
  eraseProjectionType,
  type AnyProjection,
  type FieldOwner,
  type FieldOwnership,
  type ProjectionContext,
  type ProjectionDefinition,
  type ProjectionDocument,
} from './engine/projection-definition';
export { ProjectionEngine, type BatchResult, type EngineMode, type EngineTuning } from './engine/projection-engine';
export { ProjectionRunner, type ProjectionRunnerOptions } from './engine/projection-runner';
export type { ProjectionState, ProjectionStatus, ProjectorHealth } from './engine/projection-status';
export { rebuildCollections, type RebuildProgress, type RebuildResult } from './engine/rebuild';
export {
  dropRetired,
  replaceCollections,
  type ReplaceCollectionsOptions,
  type ReplaceCollectionsResult,
  type ReplacedProjection,
} from './engine/replace-collections';
export { ProjectionCheckpoints, type ProjectionCheckpointDocument } from './engine/projection-checkpoints';
export { inThreadRebuildExecutor } from './engine/in-thread-rebuild-executor';
export type { RebuildEnvironment, RebuildExecutor, RebuildGroup, RebuildHooks } from './engine/rebuild-executor.port';
export type { RebuildTarget } from './engine/rebuild';
export type { RebuildThreadsOptions } from './sqlite-rebuild/rebuild-threads';
export { ThreadedRebuildExecutor } from './sqlite-rebuild/threaded-rebuild-executor';
export { decodeRevisions, streamKey, type StreamRevisions } from './engine/stream-revisions';
export { TurnTaskLookup } from './engine/turn-task-lookup';
export * from './consistency';
export { ReadModels, type PageRequest } from './read/read-models';
export { readModelProjections } from './read-model-projections';
export { mainLineProjection } from './main-line/main-line.projection';
export type { MainLineDocument } from './main-line/main-line.document';
export { tasksProjection } from './tasks/tasks.projection';
export type { TaskDocument, TaskKind, TaskStatus, TurnActivity } from './tasks/task.document';
export { inboxItemsProjection, inboxItemDocumentId } from './inbox/inbox-items.projection';
export type { InboxItemDocument, InboxItemStatus } from './inbox/inbox-item.document';
export { turnsProjection } from './turns/turns.projection';
export type { StepContext, TurnDocument, TurnStep, TurnToolCall } from './turns/turn.document';
export { memoriesProjection } from './memory/memories.projection';
export { memoryProjections } from './memory/memory-projections';
export { memoryDocumentId } from './memory/memory-ids';
export {
  MEMORY_READ_MODEL,
  MemoryReadModel,
  type MemoryListFilter,
  type MemoryOwner,
} from './memory/memory-read-model';
export type {
  EpisodeSummaryEntry,
  ForgettingEntry,
  MemoryDocument,
  MemoryEvidenceEntry,
  MemoryScopeKind,
  MemoryTextRef,
  MemoryVersionEntry,
  MemoryVersionStatus,
  ProfileVersionEntry,
} from './memory/memory.document';
