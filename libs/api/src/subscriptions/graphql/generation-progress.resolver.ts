import { Inject } from '@nestjs/common';
import { Args, Context, Resolver, Subscription } from '@nestjs/graphql';
import type { Caller } from '@lomo/auth';
import { CurrentCaller } from '../../auth/current-caller.decorator';
import { GenerationProgressArgs, generationProgressArgsSchema } from '../../graphql/args/generation.args';
import { validate } from '../../graphql/args/input-schemas';
import { GenerationProgressUpdate } from '../../graphql/types/generation.types';
import { GenerationUpdates } from '../live/generation-updates';
import { slowConsumerHandler, type LiveContext } from './live-context';

const asIs = <T>(payload: T): T => payload;

@Resolver()
export class GenerationProgressResolver {
  constructor(@Inject(GenerationUpdates) private readonly updates: GenerationUpdates) {}

  @Subscription(() => GenerationProgressUpdate, {
    resolve: asIs,
    description:
      "A task's paid media jobs live: first each job as it is, then a job again whenever it changes (approval asked, submitted, progress, completed, failed, charged, refunded). NOT_FOUND for a task of another workspace.",
  })
  generationProgress(
    @CurrentCaller() caller: Caller,
    @Args() args: GenerationProgressArgs,
    @Context() context: Partial<LiveContext>,
  ): Promise<AsyncIterableIterator<GenerationProgressUpdate>> {
    const { taskId } = validate(generationProgressArgsSchema, args);
    return this.updates.open(caller, taskId, slowConsumerHandler(context));
  }
}
