import { Inject } from '@nestjs/common';
import { Args, Context, Resolver, Subscription } from '@nestjs/graphql';
import type { Caller } from '@lomo/auth';
import { CurrentCaller } from '../../auth/current-caller.decorator';
import { validate } from '../../graphql/args/input-schemas';
import { MainLineUpdates } from '../live/main-line-updates';
import { TaskUpdates } from '../live/task-updates';
import { MainlineUpdatedArgs, TaskUpdatedArgs, mainlineUpdatedSchema, taskUpdatedSchema } from './live.args';
import { slowConsumerHandler, type LiveContext } from './live-context';
import { MainLineUpdate, TaskUpdate } from './live.types';

const asIs = <T>(payload: T): T => payload;

/** Read-model subscriptions (graphql-ws on /graphql), fed by the projector's change notices. */
@Resolver()
export class LiveUpdatesResolver {
  constructor(
    @Inject(MainLineUpdates) private readonly mainLine: MainLineUpdates,
    @Inject(TaskUpdates) private readonly tasks: TaskUpdates,
  ) {}

  @Subscription(() => MainLineUpdate, {
    resolve: asIs,
    description:
      'Your main line live: first the latest items (snapshot), then each item as the read model changes it (a new message, its routing, a reply, a card).',
  })
  mainlineUpdated(
    @CurrentCaller() caller: Caller,
    @Args() args: MainlineUpdatedArgs,
    @Context() context: Partial<LiveContext>,
  ): Promise<AsyncIterableIterator<MainLineUpdate>> {
    const { first } = validate(mainlineUpdatedSchema, args);
    return this.mainLine.open(caller, first, slowConsumerHandler(context));
  }

  @Subscription(() => TaskUpdate, {
    resolve: asIs,
    description:
      "A task of your workspace live: first its current state, then every newer one (its turns' progress, stops, completion). NOT_FOUND for an id of another workspace.",
  })
  taskUpdated(
    @CurrentCaller() caller: Caller,
    @Args() args: TaskUpdatedArgs,
    @Context() context: Partial<LiveContext>,
  ): Promise<AsyncIterableIterator<TaskUpdate>> {
    const { taskId } = validate(taskUpdatedSchema, args);
    return this.tasks.open(caller, taskId, slowConsumerHandler(context));
  }
}
