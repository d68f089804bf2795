import { streams } from '@lomo/contracts';
import { ScriptedModelProvider, type ScriptedStep } from '@lomo/llm';
import type { RuntimeOptionsInput } from '@lomo/runtime';
import { HARNESS_USER, RuntimeHarness, type HarnessWorker } from '@lomo/runtime/testing';

/** What the recorded scenario ran, for the assertions. */
export interface RecordedScenario {
  harness: RuntimeHarness;
  worker: HarnessWorker;
  taskId: string;
  /** The task's turns in order: [notes turn (3 steps), errands turn (2 steps)]. */
  turns: string[];
  close(): Promise<void>;
}

/** What the scripted model answered when the scenario was recorded, step by step. */
export const RECORDED_SCRIPT = {
  groceries: [
    { text: 'Creating it.', toolCalls: [{ name: 'notes.create', arguments: { title: 'groceries' } }] },
    { text: '', toolCalls: [{ name: 'notes.list', arguments: { limit: 5 } }] },
    { text: 'Done: groceries is in your notes.' },
  ],
  errands: [
    { text: 'Adding it.', toolCalls: [{ name: 'notes.create', arguments: { title: 'errands', body: 'post office' } }] },
    { text: 'Done.' },
  ],
} as const;

/**
 * A task recorded by the real runtime (the worker, its ContextAssembler and PromptArchive, the
 * starter tools on SQLite) with a scripted model: a persistent task whose first turn creates a
 * note, lists the notes and answers (three steps), then a second message and a second turn that
 * creates another note and answers (two steps). Every prompt archived is the assembler's own, so
 * a replay can reproduce them byte for byte.
 */
export async function recordScenario(
  label = 'replay-scenario',
  /** The worker's runtime options (a small context window makes it compress its history). */
  runtime: Partial<RuntimeOptionsInput> = {},
): Promise<RecordedScenario> {
  const harness = await RuntimeHarness.open({ label });
  const script: ScriptedStep[] = [...RECORDED_SCRIPT.groceries, ...RECORDED_SCRIPT.errands].map((reply, i) => ({
    label: `recorded ${i + 1}`,
    reply: { ...reply, toolCalls: 'toolCalls' in reply ? reply.toolCalls.map((c) => ({ ...c })) : [] },
  }));
  const model = new ScriptedModelProvider(script);
  const worker = harness.worker('worker-a', model, { runtime });
  const { taskId } = await harness.createTask('Make a note called groceries', 'persistent', HARNESS_USER);
  await worker.worker.wake({ taskId, reason: 'message' });
  await harness.deliver(taskId, 'Also add a note called errands: post office', HARNESS_USER);
  await worker.worker.wake({ taskId, reason: 'message' });
  model.assertAllConsumed();
  const turns = (await harness.read(streams.task(taskId)))
    .filter((e) => e.type === 'TurnOpened')
    .map((e) => (e.data as { turnId: string }).turnId);
  return { harness, worker, taskId, turns, close: () => harness.close() };
}
