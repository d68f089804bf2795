import { AggregateStream, handleCommand, metadataOf } from '@lomo/command-handling';
import { streams, type Actor } from '@lomo/contracts';
import {
  taskDecider,
  taskEventTypes,
  type ChecklistEvidence,
  type ChecklistItemOutput,
  type ChecklistItemStatus,
  type TaskCommand,
} from '@lomo/domain';
import type { CommandDeps, TaskCommandResult } from './command-deps';
import { requireTaskIn } from './require-task';
import { verifyEvidence, type EvidenceRefusal } from './verify-evidence';

/** Who changes the plan: the person through the API, or the agent through its tools (with its call). */
export interface PlanAuthor {
  actor: Actor;
  /** The tool call, when the agent writes: it becomes the trace. */
  callId?: string;
}

interface PlanTarget {
  workspaceId: string;
  taskId: string;
  by: PlanAuthor;
}

/** An agent marked an item done without evidence the streams hold. */
export class EvidenceRefusedError extends Error {
  readonly retriable = false;
  constructor(readonly refusal: EvidenceRefusal | { code: 'EVIDENCE_REQUIRED'; message: string }) {
    super(refusal.message);
    this.name = 'EvidenceRefusedError';
  }
  get code(): string {
    return this.refusal.code;
  }
}

function decide(
  deps: Pick<CommandDeps, 'store' | 'ids'>,
  target: PlanTarget,
  command: TaskCommand,
): Promise<TaskCommandResult> {
  return handleCommand(deps.store, streams.task(target.taskId), taskDecider, command, {
    eventTypes: taskEventTypes,
    ids: deps.ids,
    guard: requireTaskIn(target.taskId, target.workspaceId),
    metadata: metadataOf({
      workspaceId: target.workspaceId,
      actor: target.by.actor,
      fallbackCorrelationId: target.by.callId ?? target.taskId,
    }),
  }).then((result) => ({ changed: result.changed, writes: result.writes }));
}

/** The approved direction; the same text again writes nothing. */
export function updateBrief(
  deps: Pick<CommandDeps, 'store' | 'ids'>,
  request: PlanTarget & { brief: string },
): Promise<TaskCommandResult> {
  const { actor, callId } = request.by;
  return decide(deps, request, {
    type: 'UpdateBrief',
    brief: request.brief,
    by: actor,
    ...(callId !== undefined ? { callId } : {}),
  });
}

/** Plans (or re-plans) the checklist; items of the same id keep their status and evidence. */
export function planChecklist(
  deps: Pick<CommandDeps, 'store' | 'ids'>,
  request: PlanTarget & {
    items: ReadonlyArray<{
      itemId: string;
      title: string;
      dependsOn: readonly string[];
      needsConfirmation?: boolean;
      output?: ChecklistItemOutput;
    }>;
    keepOutputs?: boolean;
  },
): Promise<TaskCommandResult> {
  return decide(deps, request, {
    type: 'PlanChecklist',
    items: request.items,
    ...(request.keepOutputs === true ? { keepOutputs: true } : {}),
    ...(request.by.callId !== undefined ? { callId: request.by.callId } : {}),
  });
}

/**
 * One item's status. The agent marks an item done only with evidence the streams hold (checked
 * here, before the decider, which cannot read other streams); the person's own word is theirs.
 */
export async function changeChecklistItem(
  deps: Pick<CommandDeps, 'store' | 'ids'>,
  request: PlanTarget & { itemId: string; status: ChecklistItemStatus; note?: string; evidence?: ChecklistEvidence },
): Promise<TaskCommandResult> {
  let linkedArtifactIds: string[] = [];
  if (request.status === 'done' && request.by.actor.kind !== 'user') {
    if (request.evidence === undefined)
      throw new EvidenceRefusedError({
        code: 'EVIDENCE_REQUIRED',
        message: `Item ${request.itemId} is done only with evidence: an artefact version or a completed job of this task`,
      });
    const verdict = await verifyEvidence(
      deps.store,
      request.evidence,
      request.taskId,
      request.workspaceId,
      request.itemId,
      await declaredOutput(deps, request.taskId, request.itemId),
    );
    if (!verdict.ok) throw new EvidenceRefusedError(verdict.refusal);
    linkedArtifactIds = verdict.linkedArtifactIds;
  }
  return decide(deps, request, {
    type: 'ChangeChecklistItem',
    itemId: request.itemId,
    status: request.status,
    ...(request.note !== undefined ? { note: request.note } : {}),
    ...(request.evidence !== undefined ? { evidence: request.evidence } : {}),
    ...(linkedArtifactIds.length > 0 ? { linkedArtifactIds } : {}),
  });
}

/** What the item says it delivers (its jobs must be of that media kind); null when it says nothing. */
async function declaredOutput(
  deps: Pick<CommandDeps, 'store'>,
  taskId: string,
  itemId: string,
): Promise<ChecklistItemOutput | null> {
  const task = await AggregateStream.read(deps.store, streams.task(taskId), taskDecider, taskEventTypes);
  if (task.state.status === 'none') return null;
  return task.state.checklist.find((i) => i.itemId === itemId)?.output ?? null;
}
