import { Inject } from '@nestjs/common';
import { Args, Parent, Query, ResolveField, Resolver } from '@nestjs/graphql';
import { API_READ_MODELS, type ApiReadModels } from '../../api-di-tokens';
import type { Caller } from '@lomo/auth';
import { CurrentCaller } from '../../auth/current-caller.decorator';
import { ReadAfterWrite } from '../../consistency/read-after-write';
import { validate } from '../args/input-schemas';
import { ByIdArgs, ConsistentPageArgs, byIdArgsSchema, consistentPageArgsSchema } from '../args/query.args';
import { mapMainLineItem } from '../mappers/map-main-line';
import { mapCheckpoint, mapTask } from '../mappers/map-task';
import { pageOfStore } from '../paging';
import type { ConnectionShape } from '../types/connection';
import { MainLineConnection, MainLineItem } from '../types/main-line.types';
import { CheckpointCard, Task } from '../types/task.types';

@Resolver(() => MainLineItem)
export class MainLineResolver {
  constructor(
    @Inject(API_READ_MODELS) private readonly readModels: ApiReadModels,
    @Inject(ReadAfterWrite) private readonly readAfterWrite: ReadAfterWrite,
  ) {}

  @Query(() => MainLineConnection, { description: "The caller's conversation with Main, newest first." })
  async mainline(
    @CurrentCaller() caller: Caller,
    @Args() args: ConsistentPageArgs,
  ): Promise<ConnectionShape<MainLineItem>> {
    const { first, after, consistentWith } = validate(consistentPageArgsSchema, args);
    await this.readAfterWrite.await(caller, consistentWith);
    return pageOfStore(
      (cursor, limit) =>
        this.readModels.mainLine(caller.workspaceId, caller.userId, {
          first: limit,
          ...(cursor !== undefined ? { after: cursor } : {}),
        }),
      first,
      after,
      mapMainLineItem,
    );
  }

  @Query(() => MainLineItem, { nullable: true, description: 'One message (or card) of the caller, by id.' })
  async message(@CurrentCaller() caller: Caller, @Args() args: ByIdArgs): Promise<MainLineItem | null> {
    const { id, consistentWith } = validate(byIdArgsSchema, args);
    await this.readAfterWrite.await(caller, consistentWith);
    const document = await this.readModels.getMessage(caller.workspaceId, id);
    // A task's checkpoints item exists before its first card (kind null): nothing to show yet.
    return document !== undefined && document.userId === caller.userId && document.kind !== null
      ? mapMainLineItem(document)
      : null;
  }

  @ResolveField(() => Task, {
    nullable: true,
    description: 'The task the message was routed to, or the task of the card(s).',
  })
  async task(@CurrentCaller() caller: Caller, @Parent() item: MainLineItem): Promise<Task | null> {
    const taskId = taskOf(item);
    if (taskId === null) return null;
    const document = await this.readModels.getTask(caller.workspaceId, taskId);
    return document === undefined ? null : mapTask(document);
  }

  @ResolveField(() => [CheckpointCard], {
    description:
      "The open checkpoint cards of the item's task (the one it was routed to, the card's or the checkpoints'), oldest first: what waits for your decision there. Empty for an item without a task.",
  })
  async pendingCheckpoints(@CurrentCaller() caller: Caller, @Parent() item: MainLineItem): Promise<CheckpointCard[]> {
    const taskId = taskOf(item);
    if (taskId === null) return [];
    const document = await this.readModels.getTask(caller.workspaceId, taskId);
    if (document === undefined) return [];
    return document.checkpoints.filter((c) => c.resolution === null).map((c) => mapCheckpoint(taskId, c));
  }
}

/** The task an item is about: where the message went, the task card's, or the checkpoints'. */
const taskOf = (item: MainLineItem): string | null =>
  item.routing?.taskId ?? item.card?.taskId ?? item.checkpoints[0]?.taskId ?? null;
