import { Inject } from '@nestjs/common';
import { Args, Context, Resolver, Subscription } from '@nestjs/graphql';
import { mayReadWorkspace, type Caller } from '@lomo/auth';
import { ApiError, ApiErrorCodes } from '@lomo/contracts';
import { CurrentCaller } from '../../auth/current-caller.decorator';
import { validate } from '../../graphql/args/input-schemas';
import { EventFeeds } from '../feed/event-feeds';
import { feedFilter } from '../feed/feed-filter';
import { EventFeedArgs, eventFeedSchema } from './live.args';
import { slowConsumerHandler, type LiveContext } from './live-context';
import { FeedEvent } from './live.types';

const asIs = <T>(payload: T): T => payload;

/** The event feed for integrations (named apart from the `events` debugging query). */
@Resolver()
export class EventFeedResolver {
  constructor(@Inject(EventFeeds) private readonly feeds: EventFeeds) {}

  @Subscription(() => FeedEvent, {
    resolve: asIs,
    description:
      "Your workspace's events in order, from `after` (a cursor it gave you) or the beginning, then live. Resubscribe with the last cursor you handled to resume without a gap or a repeat.",
  })
  eventFeed(
    @CurrentCaller() caller: Caller,
    @Args() args: EventFeedArgs,
    @Context() context: Partial<LiveContext>,
  ): Promise<AsyncIterableIterator<FeedEvent>> {
    const { filter, after, workspaceId } = validate(eventFeedSchema, args);
    const workspace = workspaceId ?? caller.workspaceId;
    if (!mayReadWorkspace(caller, workspace)) {
      throw new ApiError(ApiErrorCodes.FORBIDDEN, 'Only operator tokens read another workspace', {
        workspaceId: workspace,
      });
    }
    return this.feeds.open(caller, feedFilter(filter), after, slowConsumerHandler(context), workspace);
  }
}
