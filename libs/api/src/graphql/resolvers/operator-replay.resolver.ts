import { Inject } from '@nestjs/common';
import { Args, Query, Resolver } from '@nestjs/graphql';
import { logOperatorRead, type Caller } from '@lomo/auth';
import { BLOB_STORE, type BlobStore } from '@lomo/blobs';
import { LOMO_CONFIG, type LomoConfig } from '@lomo/config';
import { streams } from '@lomo/contracts';
import { EVENT_STORE, type EventStore } from '@lomo/eventstore';
import { LOGGER, type Logger } from '@lomo/observability';
import {
  parsePromptPatch,
  ReplayModelRefusedError,
  replayModelFromConfig,
  replaySetupFromConfig,
  replayTurn,
  type ReplayDeps,
  type ReplaySources,
} from '@lomo/operator';
import { CurrentCaller } from '../../auth/current-caller.decorator';
import { validate } from '../args/input-schemas';
import { ReplayTurnArgs, replayTurnSchema } from '../args/operator-replay.args';
import { mapReplayReport } from '../mappers/map-replay';
import { ReplayReport } from '../types/operator-replay.types';
import { refusal, requireOperator } from './operator-refusals';

/**
 * `lomo turn replay` for the web inspector and any operator client: @lomo/operator's replayTurn
 * on the API's own event store and blob store, which it only reads (a query: it appends nothing,
 * runs no tool and publishes nothing; the chosen model is the only thing it may call). The
 * replay's runtime setup (the executor's tool definitions with no service behind them, runtime
 * options, tokenizer) is built once from the app's configuration, as the executor builds its own.
 */
@Resolver()
export class OperatorReplayResolver {
  private readonly sources: ReplaySources;
  private readonly deps: ReplayDeps;

  constructor(
    @Inject(EVENT_STORE) store: EventStore,
    @Inject(BLOB_STORE) blobs: BlobStore,
    @Inject(LOMO_CONFIG) private readonly config: LomoConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.sources = { events: store, blobs };
    this.deps = replaySetupFromConfig(config, logger);
  }

  @Query(() => ReplayReport, {
    description:
      "Replays a turn from its log, side-effect free (the same as `lomo turn replay`): each step's prompt rebuilt and compared with the archived one, answered by `options.model` (the recorded replies by default) after `options.promptPatch`, and its decision diffed with the record. Appends nothing, runs no tool. Operator tokens only (FORBIDDEN otherwise); NOT_FOUND for an unknown turn, STEP_BEYOND_TURN, BAD_PROMPT_PATCH, BAD_REPLAY_SCRIPT, BAD_REPLAY_MODEL.",
  })
  async replayTurn(@CurrentCaller() caller: Caller, @Args() args: ReplayTurnArgs): Promise<ReplayReport> {
    requireOperator(caller);
    const { turnId, options } = validate(replayTurnSchema, args);
    // Every input is checked before the log is read: a refusal reads and changes nothing.
    const promptPatch = options.promptPatch === undefined ? undefined : parsePromptPatch(options.promptPatch);
    if (options.script !== undefined && options.model !== 'scripted')
      throw new ReplayModelRefusedError(`a script is read by the scripted model only, not by ${options.model}`);
    const model = replayModelFromConfig(options.model, this.config, options.script);
    const report = await replayTurn(
      this.sources,
      caller,
      turnId,
      {
        model,
        ...(options.step !== undefined ? { step: options.step } : {}),
        ...(promptPatch !== undefined ? { promptPatch } : {}),
      },
      this.deps,
    ).catch(refusal('turn', turnId));
    logOperatorRead(this.logger, caller, {
      path: 'replayTurn',
      workspaceId: report.workspaceId,
      streamId: streams.turn(turnId),
    });
    return mapReplayReport(report);
  }
}
