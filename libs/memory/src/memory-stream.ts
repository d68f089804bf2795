import { handleCommand, metadataOf, type CommandResult } from '@lomo/command-handling';
import { streams, type Actor, type IdGenerator, type WriteMetadata } from '@lomo/contracts';
import { memoryDecider, memoryEventTypes, type MemoryCommand, type MemoryEvent, type MemoryState } from '@lomo/domain';
import type { EventStore } from '@lomo/eventstore';

export interface MemoryCommandDeps {
  store: EventStore;
  ids: IdGenerator;
}

/** Whose memory: one person in one workspace (the stream id names them). */
export interface MemoryOwner {
  workspaceId: string;
  userId: string;
}

/**
 * One command (or several, decided in order and appended as one batch) on a person's memory
 * stream, through the one decider command handler: read, fold, decide, append at the revision
 * read, decided again on a concurrent write. The API's commands act as the person; the memory
 * worker (extraction, the forgetting cascade) passes its own metadata. The stream id names the
 * person, so no other guard is needed: nobody can name another person's memory here.
 */
export function decideOnMemory(
  deps: MemoryCommandDeps,
  owner: MemoryOwner,
  command: MemoryCommand | ((state: MemoryState) => MemoryCommand | readonly MemoryCommand[]),
  by: Actor | { metadata: WriteMetadata } = { kind: 'user', userId: owner.userId },
  /** A fold of the stream the caller holds (MemoryStreamCache): only later events are read and folded. */
  known?: { state: MemoryState; revision: number },
): Promise<CommandResult<MemoryEvent, MemoryState>> {
  const streamId = streams.memory(owner.workspaceId, owner.userId);
  const metadata =
    'metadata' in by
      ? by.metadata
      : metadataOf({ workspaceId: owner.workspaceId, actor: by, fallbackCorrelationId: streamId });
  return handleCommand(deps.store, streamId, memoryDecider, command, {
    eventTypes: memoryEventTypes,
    ids: deps.ids,
    metadata,
    ...(known !== undefined ? { initial: { ...known, workspaceId: owner.workspaceId } } : {}),
  });
}
