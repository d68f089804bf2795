import type { StreamWrite } from '@lomo/command-handling';
import type { Actor } from '@lomo/contracts';
import type { TraceContext } from '@lomo/observability';

// The person's corrections of routing (move a message, merge two tasks, upgrade a lightweight
// task) and the runtime's summary. `trace`, when given, is the request's; otherwise the active one.

/** Moves a message of the person's own to another task of the same workspace. */
export class MoveMessage {
  constructor(
    readonly workspaceId: string,
    readonly userId: string,
    readonly messageId: string,
    readonly toTaskId: string,
    readonly trace?: TraceContext,
  ) {}
}

/** Merges the source task into the target: its open messages move, it is archived with a pointer. */
export class MergeTasks {
  constructor(
    readonly workspaceId: string,
    /** The person's user id. */
    readonly by: string,
    readonly sourceTaskId: string,
    readonly targetTaskId: string,
    readonly trace?: TraceContext,
  ) {}
}

/** Lightweight → persistent, keeping its history; by the person, the router or the runtime. */
export class UpgradeTask {
  constructor(
    readonly workspaceId: string,
    readonly taskId: string,
    readonly by: Actor,
    readonly reason: string,
    readonly trace?: TraceContext,
  ) {}
}

/** The runtime's routing summary of a task (libs/runtime/src/summary/). */
export class UpdateTaskSummary {
  constructor(
    readonly workspaceId: string,
    readonly taskId: string,
    readonly summary: string,
    readonly turnId?: string,
  ) {}
}

/** Every write's (stream, revision): what consistency tokens are built from (TaskCommandResult's shape). */
interface Written {
  changed: boolean;
  writes: StreamWrite[];
}

export interface MoveMessageResult extends Written {
  messageId: string;
  sourceTaskId: string;
  toTaskId: string;
  /** True when the source had read it already: it stays there as history and the target got a copy. */
  consumed: boolean;
}

export interface MergeTasksResult extends Written {
  sourceTaskId: string;
  targetTaskId: string;
  /** The source's open messages delivered to the target by this merge. */
  movedItemIds: string[];
}

export interface CorrectionResult extends Written {
  taskId: string;
}
