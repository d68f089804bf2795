import { Inject, Injectable } from '@nestjs/common';
import { EVENT_STORE, type EventStore } from '@lomo/eventstore';
import type { Caller } from '@lomo/auth';
import { notFound } from '@lomo/contracts';

/**
 * Which workspace a stream belongs to, from its first event in the store (the source of truth,
 * so a task created a moment ago is found even before the read models show it). Commands of the
 * runtime and the domain load a task by id alone; this check in front of them is what keeps one
 * workspace from touching another's streams.
 */
@Injectable()
export class StreamOwnership {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  async workspaceOf(streamId: string): Promise<string | undefined> {
    const [first] = await this.store.readStream(streamId, { fromRevision: 'start', maxCount: 1 });
    return first?.metadata.workspaceId;
  }

  async isOwnedBy(streamId: string, caller: Caller): Promise<boolean> {
    return (await this.workspaceOf(streamId)) === caller.workspaceId;
  }

  /** NOT_FOUND, the same for an absent stream and for one of another workspace. */
  async require(streamId: string, caller: Caller, what: string, id: string): Promise<void> {
    if (!(await this.isOwnedBy(streamId, caller))) throw notFound(what, id);
  }
}
