import { handleCommand, metadataOf, type CommandResult } from '@lomo/command-handling';
import { streams, type Actor, type IdGenerator } from '@lomo/contracts';
import { memoryDecider, memoryEventTypes, type MemoryCommand, type MemoryEvent, type MemoryState } from '@lomo/domain';
import type { EventStore } from '@lomo/eventstore';
import type { PersonOnMemory } from './memory-commands';

export interface MemoryCommandDeps {
  store: EventStore;
  ids: IdGenerator;
}

/**
 * One command (or several, decided in order and appended as one batch) on a person's memory
 * stream, through the one decider command handler: read, fold, decide, append at the revision
 * read, decided again on a concurrent write. The API's commands act as the person; a worker (the
 * extraction, the forgetting cascade) passes the system as `actor`. The stream id names the person,
 * so no other guard is needed: nobody can name another person's memory here.
 */
export function decideOnMemory(
  deps: MemoryCommandDeps,
  owner: PersonOnMemory,
  command: MemoryCommand | ((state: MemoryState) => MemoryCommand | readonly MemoryCommand[]),
  actor: Actor = { kind: 'user', userId: owner.userId },
): Promise<CommandResult<MemoryEvent, MemoryState>> {
  const streamId = streams.memory(owner.workspaceId, owner.userId);
  return handleCommand(deps.store, streamId, memoryDecider, command, {
    eventTypes: memoryEventTypes,
    ids: deps.ids,
    metadata: metadataOf({ workspaceId: owner.workspaceId, actor, fallbackCorrelationId: streamId }),
  });
}
