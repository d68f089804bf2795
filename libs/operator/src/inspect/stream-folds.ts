import type { EventEnvelope } from '@lomo/contracts';
import {
  mainLineDecider,
  mainLineEventTypes,
  memoryDecider,
  memoryEventTypes,
  messageReceiptDecider,
  messageReceiptEventTypes,
  taskDecider,
  taskEventTypes,
  turnDecider,
  turnEventTypes,
} from '@lomo/domain';
import { accountDecider, accountEventTypes, generationJobDecider, generationJobEventTypes } from '@lomo/generation';
import { artifactDecider, artifactEventTypes } from '@lomo/workspace';

/** An aggregate's own fold, seen from outside: its start state, its evolve and the types it reads. */
export interface StreamFold {
  initialState: () => unknown;
  evolve: (state: unknown, event: { type: string; data: unknown; recordedBy?: unknown }) => unknown;
  eventTypes: ReadonlySet<string>;
}

const foldOf = <S, E>(
  decider: { initialState: () => S; evolve: (state: S, event: E) => S },
  eventTypes: readonly string[],
): StreamFold => ({
  initialState: decider.initialState,
  evolve: decider.evolve as unknown as StreamFold['evolve'],
  eventTypes: new Set(eventTypes),
});

/**
 * The decider of each stream category (DESIGN.md §3). The operators' own log has none: it is a
 * list of actions, not an aggregate.
 */
const FOLDS: Readonly<Record<string, StreamFold>> = {
  task: foldOf(taskDecider, taskEventTypes),
  turn: foldOf(turnDecider, turnEventTypes),
  main: foldOf(mainLineDecider, mainLineEventTypes),
  memory: foldOf(memoryDecider, memoryEventTypes),
  receipt: foldOf(messageReceiptDecider, messageReceiptEventTypes),
  generation: foldOf(generationJobDecider, generationJobEventTypes),
  account: foldOf(accountDecider, accountEventTypes),
  artifact: foldOf(artifactDecider, artifactEventTypes),
};

export const foldForCategory = (category: string): StreamFold | undefined => FOLDS[category];

/**
 * Folds stored events as the command layer does (libs/command-handling/src/aggregate-stream.ts):
 * `{type, data}` with the stored actor as `recordedBy` (approvals the agent recorded authorize
 * nothing), types the decider does not know skipped rather than misread.
 */
export function foldEvents(fold: StreamFold, events: readonly EventEnvelope[]): unknown {
  let state = fold.initialState();
  for (const e of events) {
    if (!fold.eventTypes.has(e.type)) continue;
    state = fold.evolve(state, { type: e.type, data: e.data, recordedBy: e.metadata.actor });
  }
  return state;
}
