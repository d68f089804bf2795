import type { BlobRef } from '@lomo/blobs';
import { streams, type EventEnvelope } from '@lomo/contracts';
import type { ChatMessage } from '@lomo/llm';
import { PromptArchive } from '@lomo/runtime';
import type { RuntimeHarness } from '@lomo/runtime/testing';

export const typesOf = (events: readonly EventEnvelope[]) => events.map((e) => e.type);

export const ofType = <T = Record<string, unknown>>(events: readonly EventEnvelope[], type: string) =>
  events.filter((e) => e.type === type).map((e) => e.data as T);

/** The task's turns in the order they were opened. */
export async function turnIdsOf(harness: RuntimeHarness, taskId: string): Promise<string[]> {
  return ofType<{ turnId: string }>(await harness.read(streams.task(taskId)), 'TurnOpened').map((d) => d.turnId);
}

/**
 * The messages of the first step's prompt of the task's turn at `index`, as the model was sent
 * them (a stored prompt may be a delta on the one before: PromptArchive rebuilds it).
 */
export async function firstPromptOfTurn(
  harness: RuntimeHarness,
  taskId: string,
  index: number,
): Promise<ChatMessage[]> {
  const turnId = (await turnIdsOf(harness, taskId))[index];
  const [step] = ofType<{ promptRef: BlobRef }>(await harness.read(streams.turn(turnId)), 'ModelStepCommitted');
  const prompt = await new PromptArchive(harness.blobs).load(step.promptRef);
  return prompt!.messages;
}
