import { Inject } from '@nestjs/common';
import { Args, Context, Field, ObjectType, Resolver, Subscription } from '@nestjs/graphql';
import type { Caller } from '@lomo/auth';
import type { EventDataMap, EventEnvelope } from '@lomo/contracts';
import { CurrentCaller } from '../../auth/current-caller.decorator';
import { tokenForWrites } from '../../consistency/token-for-writes';
import { validate } from '../../graphql/args/input-schemas';
import { CheckpointCard } from '../../graphql/types/task.types';
import { EventFeeds } from '../feed/event-feeds';
import { CheckpointOpenedArgs, checkpointOpenedSchema } from './live.args';
import { slowConsumerHandler, type LiveContext } from './live-context';

const asIs = <T>(payload: T): T => payload;

@ObjectType({ description: 'A task of your workspace opened a checkpoint: a card waits for your decision.' })
export class CheckpointOpenedNotice {
  @Field(() => String, { description: 'Pass as `after` when resubscribing to continue right after this card.' })
  cursor!: string;

  @Field(() => CheckpointCard, { description: 'The card as it opened (resolution null).' })
  card!: CheckpointCard;

  @Field(() => String, {
    description: 'Pass as `consistentWith` to `task(id:)` to read the task with this card in it.',
  })
  consistencyToken!: string;
}

const TASK_PREFIX = 'task-';

/** The notice of a CheckpointOpened event; anything else (not on a task stream) is passed over. */
export function checkpointOpenedNotice(event: EventEnvelope, cursor: string): CheckpointOpenedNotice | undefined {
  const { streamId, revision, occurredAt } = event.metadata;
  if (event.type !== 'CheckpointOpened' || !streamId.startsWith(TASK_PREFIX)) return undefined;
  const data = event.data as EventDataMap['CheckpointOpened'];
  return {
    cursor,
    card: {
      checkpointId: data.checkpointId,
      taskId: streamId.slice(TASK_PREFIX.length),
      kind: data.kind,
      question: data.question,
      itemId: data.itemId ?? null,
      callId: data.callId ?? null,
      options: (data.options ?? []).map(({ optionId, label }) => ({ optionId, label })),
      callQuote: data.callQuote === undefined ? null : { ...data.callQuote },
      planQuote:
        data.planQuote === undefined ? null : { ...data.planQuote, lines: data.planQuote.lines.map((l) => ({ ...l })) },
      openedAt: occurredAt,
      resolution: null,
    },
    consistencyToken: tokenForWrites([{ streamId, revision }]),
  };
}

/**
 * `checkpointOpened`: each checkpoint a task of the caller's workspace opens, from now on (or
 * after a cursor it gave, to resume without a gap or a repeat). The event feed's loop, narrowed
 * to CheckpointOpened on task streams; the visibility policy applies as for `eventFeed`.
 */
@Resolver()
export class CheckpointOpenedResolver {
  constructor(@Inject(EventFeeds) private readonly feeds: EventFeeds) {}

  @Subscription(() => CheckpointOpenedNotice, {
    resolve: asIs,
    description:
      'Checkpoints opened by the tasks of your workspace, live: each new card (an approval, a question, a review, a budget) once, with its task. From now on, or after `after` (a cursor it gave you) to resume.',
  })
  async checkpointOpened(
    @CurrentCaller() caller: Caller,
    @Args() args: CheckpointOpenedArgs,
    @Context() context: Partial<LiveContext>,
  ): Promise<AsyncIterableIterator<CheckpointOpenedNotice>> {
    const { after } = validate(checkpointOpenedSchema, args);
    const from = after ?? (await this.feeds.headCursor());
    return this.feeds.openWith(
      caller,
      { categories: ['task'], types: ['CheckpointOpened'] },
      from,
      slowConsumerHandler(context),
      checkpointOpenedNotice,
    );
  }
}
