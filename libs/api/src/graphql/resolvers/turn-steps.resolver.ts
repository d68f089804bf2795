import { Inject } from '@nestjs/common';
import { Args, Parent, Query, ResolveField, Resolver } from '@nestjs/graphql';
import { BLOB_STORE, type BlobRef, type BlobStore } from '@lomo/blobs';
import { canSee, logOperatorRead, type Caller } from '@lomo/auth';
import { notFound, streams, type EventDataMap } from '@lomo/contracts';
import { EVENT_STORE, type EventStore } from '@lomo/eventstore';
import { LOGGER, type Logger } from '@lomo/observability';
import { PromptArchive } from '@lomo/runtime';
import { API_READ_MODELS, type ApiReadModels } from '../../api-di-tokens';
import { CurrentCaller } from '../../auth/current-caller.decorator';
import { ReadAfterWrite } from '../../consistency/read-after-write';
import { requireContentRead } from '../../tenancy/content-access';
import { StreamOwnership } from '../../tenancy/stream-ownership';
import { validate } from '../args/input-schemas';
import { TurnStepArgs, turnStepArgsSchema } from '../args/query.args';
import { mapPrompt } from '../mappers/map-step-context';
import { mapTurnStep } from '../mappers/map-turn';
import { StepPrompt } from '../types/step-context.types';
import { TurnStep } from '../types/turn.types';

/**
 * What a step's model saw. `turnStep` names a step directly, so an operator can open one of any
 * workspace (a history segment's range, say) and another workspace's token gets NOT_FOUND;
 * `prompt` reads the archived prompt back from the BlobStore, for whoever may see its content.
 */
@Resolver(() => TurnStep)
export class TurnStepsResolver {
  private readonly archive: PromptArchive;

  constructor(
    @Inject(API_READ_MODELS) private readonly readModels: ApiReadModels,
    @Inject(StreamOwnership) private readonly ownership: StreamOwnership,
    @Inject(ReadAfterWrite) private readonly readAfterWrite: ReadAfterWrite,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(BLOB_STORE) blobs: BlobStore,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.archive = new PromptArchive(blobs);
  }

  @Query(() => TurnStep, {
    description:
      "One committed step of a turn: your workspace's (operator tokens: any workspace's, each read logged). NOT_FOUND for an unknown turn or step and for another workspace's turn.",
  })
  async turnStep(@CurrentCaller() caller: Caller, @Args() args: TurnStepArgs): Promise<TurnStep> {
    const { turnId, step, consistentWith } = validate(turnStepArgsSchema, args);
    await this.readAfterWrite.await(caller, consistentWith);
    // The workspace from the store, as `events` decides it: the read models are asked only once
    // the policy allows the stream.
    const streamId = streams.turn(turnId);
    const workspaceId = await this.ownership.workspaceOf(streamId);
    if (workspaceId === undefined || canSee(caller, { streamId, workspaceId }) !== 'allowed')
      throw notFound('turn', turnId);
    logOperatorRead(this.logger, caller, { path: 'turnStep', workspaceId, streamId });
    const document = await this.readModels.getTurn(workspaceId, turnId);
    const found = document?.steps.find((s) => s.step === step);
    if (found === undefined) throw notFound('step', `${turnId}#${step}`);
    return mapTurnStep(turnId, workspaceId, found);
  }

  @ResolveField(() => StepPrompt, {
    description:
      "What the model was sent, by layer, with the tool definitions: for the workspace's people and operators (an integration's token is FORBIDDEN). A purged prompt shows null layers with the reason, never an error.",
  })
  async prompt(@CurrentCaller() caller: Caller, @Parent() step: TurnStep): Promise<StepPrompt> {
    requireContentRead(
      caller,
      {
        streamId: streams.turn(step.turnId),
        workspaceId: step.workspaceId,
        eventType: 'ModelStepCommitted',
        what: 'turn',
        id: step.turnId,
      },
      this.logger,
      'TurnStep.prompt',
    );
    const ref = step.promptRef ?? (await this.promptRefFromEvent(step));
    return mapPrompt(ref === undefined ? undefined : await this.archive.load(ref));
  }

  /** The step's own event, for a read-model document written before steps kept their promptRef. */
  private async promptRefFromEvent(step: TurnStep): Promise<BlobRef | undefined> {
    const events = await this.store.readStream(streams.turn(step.turnId));
    const data = events
      .filter((e) => e.type === 'ModelStepCommitted')
      .map((e) => e.data as EventDataMap['ModelStepCommitted'])
      .find((d) => d.step === step.step);
    return data?.promptRef;
  }
}
