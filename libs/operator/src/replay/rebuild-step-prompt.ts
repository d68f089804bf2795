import { briefTextForContext } from '@lomo/domain';
import { ContextAssembler, TaskView, TurnSession, TurnView, type Prompt } from '@lomo/runtime';
import type { ToolRegistry } from '@lomo/tools';
import type { CopyOnWriteBlobStore } from './copy-on-write-blobs';
import type { RecordedMemory } from './recorded-memory';
import { copyIntoScratch } from './replay-copy';
import { eventsBefore, type RecordedStep, type ReplayRecord } from './replay-record';
import { replayRuntimeDeps, type ReplayDeps } from './replay-runtime-deps';

export interface RebuiltPrompt {
  prompt: Prompt;
  /** The brief the tail shows (what a brief patch rewrites); null when the task has none. */
  brief: string | null;
  /** Items the step consumed that were forgotten since: left out of its input. */
  forgottenInput: string[];
  /** Outside writes taken as landed during the step's model call (left out of its copy). */
  concurrent: Array<{ type: string; at: string }>;
}

/**
 * A step's prompt rebuilt by the live ContextAssembler on a scratch copy of the state just
 * before the step was committed (with the task's later forgettings applied), as a worker
 * would have built it: the step's claimed items as its input, its recorded profile and memories.
 * The assembler may append history segments while it maintains: to the copy, never the real store.
 */
export async function rebuildStepPrompt(
  record: ReplayRecord,
  recorded: RecordedStep,
  sources: { blobs: CopyOnWriteBlobStore; tools: ToolRegistry; memory: RecordedMemory },
  deps: ReplayDeps,
): Promise<RebuiltPrompt> {
  const { before, forgettings, concurrent } = eventsBefore(record, recorded);
  const scratch = await copyIntoScratch(before, forgettings);
  const { store } = scratch;
  try {
    const context = recorded.step.context;
    const runtime = replayRuntimeDeps(
      deps,
      { store, blobs: sources.blobs, tools: sources.tools },
      { profile: sources.memory.profile(context), recall: sources.memory.recall(context) },
    );
    const task = await TaskView.load(store, record.taskId);
    const turn = await TurnView.load(store, record.turnId);
    const session = new TurnSession(runtime, task, turn, record.workspaceId);
    session.generation = turn.state.status === 'none' ? 0 : turn.state.generation;
    const state = task.existing;
    if (state === undefined)
      throw new Error(`task ${record.taskId} has no TaskCreated before step ${recorded.step.step}`);
    const isForgotten = (itemId: string) => {
      const item = state.inbox[itemId];
      return item !== undefined && state.excluded.messageIds.includes(item.messageId);
    };
    const claimed = recorded.step.consumedItemIds.filter((id) => !isForgotten(id));
    const assembler = new ContextAssembler(runtime, deps.contextBuilder);
    const { prompt } = await assembler.assemble(session, recorded.step.step, claimed);
    return {
      prompt,
      brief: task.existing === undefined ? null : briefTextForContext(task.existing),
      forgottenInput: recorded.step.consumedItemIds.filter(isForgotten),
      concurrent: concurrent.map((e) => ({ type: e.type, at: e.metadata.occurredAt })),
    };
  } finally {
    await scratch.discard();
  }
}
