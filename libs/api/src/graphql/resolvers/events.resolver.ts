import { Inject } from '@nestjs/common';
import { Args, Query, Resolver } from '@nestjs/graphql';
import { EVENT_STORE, type EventStore } from '@lomo/eventstore';
import { canSee, canSeeEvent, logOperatorRead, type Caller } from '@lomo/auth';
import { LOGGER, type Logger } from '@lomo/observability';
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
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  @Query(() => StoredEventConnection, {
    description:
      'Raw events of one stream you may see, for debugging: shared streams of your workspace, your own main line and memory (integration tokens: the exposed event types; operator tokens: any stream). Any other stream reads as empty, whether it exists or not.',
  })
  async events(@CurrentCaller() caller: Caller, @Args() args: EventsArgs): Promise<ConnectionShape<StoredEvent>> {
    const { streamId, fromRevision, first, consistentWith } = validate(eventsArgsSchema, args);
    await this.readAfterWrite.await(caller, consistentWith);
    // The policy (libs/auth/src/visibility-policy.ts) decides on the stream's workspace from the
    // store, and on each event read: another person's main line is hidden before anything is read.
    const workspaceId = await this.ownership.workspaceOf(streamId);
    const visible = workspaceId !== undefined && canSee(caller, { streamId, workspaceId }) === 'allowed';
    if (visible) logOperatorRead(this.logger, caller, { path: 'events', workspaceId, streamId });
    const read = visible ? await this.store.readStream(streamId, { fromRevision, maxCount: first + 1 }) : [];
    // hasNextPage counts what the caller may see only (an integration sees some types only).
    const events = read.filter((e) => canSeeEvent(caller, e));
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
