import { streams, type EventEnvelope } from '@lomo/contracts';
import type { RuntimeHarness } from '@lomo/runtime/testing';

export const typesOf = (events: readonly EventEnvelope[]) => events.map((e) => e.type);

export const ofType = <T = Record<string, unknown>>(events: readonly EventEnvelope[], type: string) =>
  events.filter((e) => e.type === type).map((e) => e.data as T);

/** The task's turns in the order they were opened. */
export async function turnIdsOf(harness: RuntimeHarness, taskId: string): Promise<string[]> {
  return ofType<{ turnId: string }>(await harness.read(streams.task(taskId)), 'TurnOpened').map((d) => d.turnId);
}
