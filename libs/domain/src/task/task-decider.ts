import { assertNever, type Decider } from '../decider';
import { claimInboxItems, deliverMessage, releaseClaims, replaceInboxItem, withdrawInboxItem } from './decide-inbox';
import { openCheckpoint, resolveCheckpoint } from './decide-checkpoints';
import {
  archiveTask,
  changeAutonomy,
  completeTask,
  createTask,
  pauseTask,
  resumeTask,
  stopTask,
  upgradeTask,
} from './decide-lifecycle';
import {
  approvePlanBudget,
  changeChecklistItem,
  noticeArtifactChange,
  planChecklist,
  updateBrief,
} from './decide-plan';
import { closeTurn, openTurn, recordContinuation } from './decide-turn-slot';
import { acceptMerge, mergeInto, moveMessageOut, updateTaskSummary } from './decide-corrections';
import {
  appendHistorySegment,
  excludeContext,
  excludeHistorySegments,
  loadToolDomains,
  noteConstraints,
  unloadToolDomains,
} from './decide-context';
import { armTools, recordFork } from './decide-fork';
import type { TaskCommand } from './task-commands';
import type { TaskEvent } from './task-events';
import { evolveTask } from './task-evolve';
import { initialTaskState, type TaskState } from './task-state';

export function decideTask(command: TaskCommand, state: TaskState): TaskEvent[] {
  switch (command.type) {
    case 'CreateTask':
      return createTask(command, state);
    case 'DeliverMessage':
      return deliverMessage(command, state);
    case 'WithdrawInboxItem':
      return withdrawInboxItem(command, state);
    case 'ReplaceInboxItem':
      return replaceInboxItem(command, state);
    case 'ClaimInboxItems':
      return claimInboxItems(command, state);
    case 'ReleaseClaims':
      return releaseClaims(command, state);
    case 'OpenTurn':
      return openTurn(command, state);
    case 'CloseTurn':
      return closeTurn(command, state);
    case 'OpenCheckpoint':
      return openCheckpoint(command, state);
    case 'ResolveCheckpoint':
      return resolveCheckpoint(command, state);
    case 'PauseTask':
      return pauseTask(command, state);
    case 'ResumeTask':
      return resumeTask(command, state);
    case 'StopTask':
      return stopTask(command, state);
    case 'CompleteTask':
      return completeTask(command, state);
    case 'ArchiveTask':
      return archiveTask(command, state);
    case 'ChangeAutonomy':
      return changeAutonomy(command, state);
    case 'UpgradeTask':
      return upgradeTask(command, state);
    case 'UpdateTaskSummary':
      return updateTaskSummary(command, state);
    case 'MoveMessageOut':
      return moveMessageOut(command, state);
    case 'MergeInto':
      return mergeInto(command, state);
    case 'AcceptMerge':
      return acceptMerge(command, state);
    case 'UpdateBrief':
      return updateBrief(command, state);
    case 'PlanChecklist':
      return planChecklist(command, state);
    case 'ChangeChecklistItem':
      return changeChecklistItem(command, state);
    case 'ApprovePlanBudget':
      return approvePlanBudget(command, state);
    case 'RecordContinuation':
      return recordContinuation(command, state);
    case 'NoticeArtifactChange':
      return noticeArtifactChange(command, state);
    case 'LoadToolDomains':
      return loadToolDomains(command, state);
    case 'UnloadToolDomains':
      return unloadToolDomains(command, state);
    case 'AppendHistorySegment':
      return appendHistorySegment(command, state);
    case 'ExcludeHistorySegments':
      return excludeHistorySegments(command, state);
    case 'ExcludeContext':
      return excludeContext(command, state);
    case 'NoteConstraints':
      return noteConstraints(command, state);
    case 'RecordFork':
      return recordFork(command, state);
    case 'ArmTools':
      return armTools(command, state);
    default:
      return assertNever(command, 'task command');
  }
}

/** The task aggregate: a task's lifecycle, inbox, one active turn, checkpoints and approvals. */
export const taskDecider: Decider<TaskCommand, TaskEvent, TaskState> = {
  initialState: initialTaskState,
  decide: decideTask,
  evolve: evolveTask,
};
