import { Inject } from '@nestjs/common';
import { Args, Query, Resolver } from '@nestjs/graphql';
import { logOperatorRead, type Caller } from '@lomo/auth';
import { BLOB_STORE, type BlobStore } from '@lomo/blobs';
import { streams } from '@lomo/contracts';
import { EVENT_STORE, type EventStore } from '@lomo/eventstore';
import { LOGGER, type Logger } from '@lomo/observability';
import { inspectTask, inspectTurn, type InspectionSources } from '@lomo/operator';
import { API_READ_MODELS, type ApiReadModels } from '../../api-di-tokens';
import { CurrentCaller } from '../../auth/current-caller.decorator';
import { encodeFeedCursor } from '../../subscriptions/feed/feed-cursor';
import { validate } from '../args/input-schemas';
import {
  OperatorTaskInspectionArgs,
  OperatorTasksArgs,
  OperatorTurnInspectionArgs,
  operatorTaskInspectionSchema,
  operatorTasksSchema,
  operatorTurnInspectionSchema,
} from '../args/operator-inspection.args';
import { mapInspectedTurn, mapTaskInspection } from '../mappers/map-inspection';
import { InspectedTurn, OperatorTaskSearch, TaskInspection } from '../types/operator-inspection.types';
import { refusal, requireOperator } from './operator-refusals';
import { searchTasks } from './operator-task-search';

/**
 * What `lomo task inspect` and `lomo turn inspect` show, for the web inspector (/inspector) and
 * any operator client: built by @lomo/operator from the event log and the blob store, of any
 * workspace. Operator tokens only, even for the operator's own workspace: a person's or an
 * integration's token is FORBIDDEN before anything is read. Each read is logged (logOperatorRead).
 */
@Resolver()
export class OperatorInspectionResolver {
  private readonly sources: InspectionSources;

  constructor(
    @Inject(API_READ_MODELS) private readonly readModels: ApiReadModels,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(BLOB_STORE) blobs: BlobStore,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.sources = { events: store, blobs };
  }

  @Query(() => OperatorTaskSearch, {
    description:
      'Tasks of every workspace (or one) whose id, workspace, goal or summary hold every word of `search`, most recent activity first. Operator tokens only (FORBIDDEN otherwise).',
  })
  async operatorTasks(@CurrentCaller() caller: Caller, @Args() args: OperatorTasksArgs): Promise<OperatorTaskSearch> {
    requireOperator(caller);
    const { search, workspaceId, first } = validate(operatorTasksSchema, args);
    const found = await searchTasks(this.readModels, {
      first,
      ...(search !== undefined && search !== '' ? { search } : {}),
      ...(workspaceId !== undefined ? { workspaceId } : {}),
    });
    // `*`: a search over every workspace.
    logOperatorRead(this.logger, caller, { path: 'operatorTasks', workspaceId: workspaceId ?? '*' });
    return {
      complete: found.complete,
      tasks: found.tasks.map((t) => ({
        id: t._id,
        workspaceId: t.workspaceId,
        goal: t.goal,
        summary: t.summary,
        status: t.status,
        kind: t.kind,
        createdAt: t.createdAt,
        lastActivityAt: t.lastActivityAt,
      })),
    };
  }

  @Query(() => TaskInspection, {
    description:
      'One task of any workspace as the event log tells it (the same data as `lomo task inspect`). Operator tokens only (FORBIDDEN otherwise); NOT_FOUND for an unknown task.',
  })
  async operatorTaskInspection(
    @CurrentCaller() caller: Caller,
    @Args() args: OperatorTaskInspectionArgs,
  ): Promise<TaskInspection> {
    requireOperator(caller);
    const { taskId, prompts } = validate(operatorTaskInspectionSchema, args);
    // Taken before the read: following the feed after it misses nothing the inspection missed.
    const head = await this.store.headPosition();
    const inspection = await inspectTask(this.sources, caller, taskId, { prompts }).catch(refusal('task', taskId));
    logOperatorRead(this.logger, caller, {
      path: 'operatorTaskInspection',
      workspaceId: inspection.workspaceId,
      streamId: streams.task(taskId),
    });
    return mapTaskInspection(inspection, head === undefined ? null : encodeFeedCursor(head));
  }

  @Query(() => InspectedTurn, {
    description:
      'One turn of any workspace as the event log tells it (the same data as `lomo turn inspect`). Operator tokens only (FORBIDDEN otherwise); NOT_FOUND for an unknown turn.',
  })
  async operatorTurnInspection(
    @CurrentCaller() caller: Caller,
    @Args() args: OperatorTurnInspectionArgs,
  ): Promise<InspectedTurn> {
    requireOperator(caller);
    const { turnId, prompts } = validate(operatorTurnInspectionSchema, args);
    const turn = await inspectTurn(this.sources, caller, turnId, { prompts }).catch(refusal('turn', turnId));
    logOperatorRead(this.logger, caller, {
      path: 'operatorTurnInspection',
      workspaceId: turn.workspaceId,
      streamId: streams.turn(turnId),
    });
    return mapInspectedTurn(turn);
  }
}
