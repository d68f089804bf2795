import { Inject } from '@nestjs/common';
import { Args, Query, Resolver } from '@nestjs/graphql';
import { EVENT_STORE, type EventStore } from '@lomo/eventstore';
import type { Caller } from '@lomo/auth';
import { CurrentCaller } from '../../auth/current-caller.decorator';
import { ReadAfterWrite } from '../../consistency/read-after-write';
import { StreamOwnership } from '../../tenancy/stream-ownership';
import { validate } from '../args/input-schemas';
import { EventsArgs, eventsArgsSchema } from '../args/query.args';
import { mapEvent } from '../mappers/map-event';
import type { ConnectionShape } from '../types/connection';
import { StoredEvent, StoredEventConnection } from '../types/event.types';

const revisionCursor = (revision: number) => Buffer.from(`r${revision}`, 'utf8').toString('base64url');

@Resolver(() => StoredEvent)
export class EventsResolver {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(StreamOwnership) private readonly ownership: StreamOwnership,
    @Inject(ReadAfterWrite) private readonly readAfterWrite: ReadAfterWrite,
  ) {}

  @Query(() => StoredEventConnection, {
    description:
      'Raw events of one stream of your workspace, for debugging. A stream of another workspace reads as empty.',
  })
  async events(@CurrentCaller() caller: Caller, @Args() args: EventsArgs): Promise<ConnectionShape<StoredEvent>> {
    const { streamId, fromRevision, first, consistentWith } = validate(eventsArgsSchema, args);
    await this.readAfterWrite.await(caller, consistentWith);
    const owned = await this.ownership.isOwnedBy(streamId, caller);
    const read = owned ? await this.store.readStream(streamId, { fromRevision, maxCount: first + 1 }) : [];
    // Every event of a stream carries the stream's workspace; checked again so nothing else leaks.
    const events = read.filter((e) => e.metadata.workspaceId === caller.workspaceId);
    const edges = events
      .slice(0, first)
      .map((e) => ({ node: mapEvent(e), cursor: revisionCursor(e.metadata.revision) }));
    return {
      edges,
      pageInfo: {
        hasNextPage: events.length > first,
        hasPreviousPage: fromRevision > 0,
        startCursor: edges[0]?.cursor ?? null,
        endCursor: edges.at(-1)?.cursor ?? null,
      },
    };
  }
}
