import { Inject } from '@nestjs/common';
import { Args, Context, Resolver, Subscription } from '@nestjs/graphql';
import type { Caller } from '@lomo/auth';
import { CurrentCaller } from '../../auth/current-caller.decorator';
import { ArtifactIdArgs, artifactIdSchema } from '../../graphql/args/artifact.args';
import { validate } from '../../graphql/args/input-schemas';
import { ArtifactUpdate } from '../../graphql/types/artifact.types';
import { ArtifactUpdates } from '../live/artifact-updates';
import { slowConsumerHandler, type LiveContext } from './live-context';

const asIs = <T>(payload: T): T => payload;

@Resolver()
export class ArtifactChangedResolver {
  constructor(@Inject(ArtifactUpdates) private readonly artifacts: ArtifactUpdates) {}

  @Subscription(() => ArtifactUpdate, {
    resolve: asIs,
    description:
      'An artefact of your workspace live: first its current state, then each newer one (a new version by the person or the agent, a deletion asked for or done). NOT_FOUND for an id of another workspace.',
  })
  artifactChanged(
    @CurrentCaller() caller: Caller,
    @Args() args: ArtifactIdArgs,
    @Context() context: Partial<LiveContext>,
  ): Promise<AsyncIterableIterator<ArtifactUpdate>> {
    const { id } = validate(artifactIdSchema, args);
    return this.artifacts.open(caller, id, slowConsumerHandler(context));
  }
}
