import { Inject } from '@nestjs/common';
import { Args, Parent, Query, ResolveField, Resolver } from '@nestjs/graphql';
import { GENERATION_READ_MODEL, type GenerationReadModel } from '@lomo/generation';
import { API_READ_MODELS, type ApiReadModels } from '../../api-di-tokens';
import type { Caller } from '@lomo/auth';
import { CurrentCaller } from '../../auth/current-caller.decorator';
import { ReadAfterWrite } from '../../consistency/read-after-write';
import { validate } from '../args/input-schemas';
import {
  ByIdArgs,
  CheckpointsArgs,
  PageArgs,
  TasksArgs,
  byIdArgsSchema,
  checkpointsArgsSchema,
  pageArgsSchema,
  tasksArgsSchema,
} from '../args/query.args';
import { mapMainLineItem } from '../mappers/map-main-line';
import { mapInboxItem, mapTask } from '../mappers/map-task';
import { mapTurn } from '../mappers/map-turn';
import { pageOfStore } from '../paging';
import type { ConnectionShape } from '../types/connection';
import { MainLineItem } from '../types/main-line.types';
import { CheckpointState, TaskListKind } from '../types/enums';
import { CheckpointCard, InboxItem, InboxItemConnection, PlanBudget, Task, TaskConnection } from '../types/task.types';
import { Turn, TurnConnection } from '../types/turn.types';

const afterOf = (cursor: string | undefined) => (cursor !== undefined ? { after: cursor } : {});

@Resolver(() => Task)
export class TasksResolver {
  constructor(
    @Inject(API_READ_MODELS) private readonly readModels: ApiReadModels,
    @Inject(ReadAfterWrite) private readonly readAfterWrite: ReadAfterWrite,
    @Inject(GENERATION_READ_MODEL) private readonly generation: GenerationReadModel,
  ) {}

  @Query(() => TaskConnection, { description: "The workspace's tasks, most recent activity first." })
  async tasks(@CurrentCaller() caller: Caller, @Args() args: TasksArgs): Promise<ConnectionShape<Task>> {
    const { first, after, consistentWith, status, kind } = validate(tasksArgsSchema, args);
    await this.readAfterWrite.await(caller, consistentWith);
    const filter = { ...(status !== undefined ? { status } : {}), ...(kind !== TaskListKind.ALL ? { kind } : {}) };
    return pageOfStore(
      (cursor, limit) => this.readModels.listTasks(caller.workspaceId, { first: limit, ...afterOf(cursor), ...filter }),
      first,
      after,
      mapTask,
    );
  }

  @Query(() => Task, { nullable: true, description: 'A task of your workspace; null when there is none with that id.' })
  async task(@CurrentCaller() caller: Caller, @Args() args: ByIdArgs): Promise<Task | null> {
    const { id, consistentWith } = validate(byIdArgsSchema, args);
    await this.readAfterWrite.await(caller, consistentWith);
    const document = await this.readModels.getTask(caller.workspaceId, id);
    return document === undefined ? null : mapTask(document);
  }

  @ResolveField(() => InboxItemConnection, { description: 'Messages delivered to the task, oldest first.' })
  inbox(
    @CurrentCaller() caller: Caller,
    @Parent() task: Task,
    @Args() args: PageArgs,
  ): Promise<ConnectionShape<InboxItem>> {
    const { first, after } = validate(pageArgsSchema, args);
    return pageOfStore(
      (cursor, limit) => this.readModels.inboxOfTask(caller.workspaceId, task.id, { first: limit, ...afterOf(cursor) }),
      first,
      after,
      mapInboxItem,
    );
  }

  @ResolveField(() => TurnConnection, { description: "The task's turns, newest first." })
  turns(@CurrentCaller() caller: Caller, @Parent() task: Task, @Args() args: PageArgs): Promise<ConnectionShape<Turn>> {
    const { first, after } = validate(pageArgsSchema, args);
    return pageOfStore(
      (cursor, limit) => this.readModels.turnsOfTask(caller.workspaceId, task.id, { first: limit, ...afterOf(cursor) }),
      first,
      after,
      mapTurn,
    );
  }

  @ResolveField(() => Turn, { nullable: true })
  async activeTurn(@CurrentCaller() caller: Caller, @Parent() task: Task): Promise<Turn | null> {
    if (task.activeTurnId === null) return null;
    const document = await this.readModels.getTurn(caller.workspaceId, task.activeTurnId);
    return document === undefined ? null : mapTurn(document);
  }

  @ResolveField(() => MainLineItem, { nullable: true, description: 'The message that started the task.' })
  async originMessage(@CurrentCaller() caller: Caller, @Parent() task: Task): Promise<MainLineItem | null> {
    if (task.originMessageId === null) return null;
    const document = await this.readModels.getMessage(caller.workspaceId, task.originMessageId);
    return document === undefined ? null : mapMainLineItem(document);
  }

  @ResolveField(() => [CheckpointCard], {
    description:
      "The task's checkpoint cards, oldest first: OPEN ones wait for your decision, RESOLVED ones carry it (default ALL). `pendingCheckpoints` is the same as OPEN.",
  })
  checkpoints(@Parent() task: Task, @Args() args: CheckpointsArgs): CheckpointCard[] {
    const { state } = validate(checkpointsArgsSchema, args);
    if (state === CheckpointState.ALL) return task.allCheckpoints;
    return task.allCheckpoints.filter((c) => (c.resolution === null) === (state === CheckpointState.OPEN));
  }

  @ResolveField(() => [PlanBudget], {
    description:
      "Money for the task's plan, one entry per currency: what you approved (approvePlanBudget or a BUDGET card, each approval listed) and what its generation jobs spent (charged minus refunded). Empty before either.",
  })
  async planBudget(@CurrentCaller() caller: Caller, @Parent() task: Task): Promise<PlanBudget[]> {
    const budgets = new Map<string, PlanBudget>();
    for (const b of task.approvedBudgets) budgets.set(b.currency, { ...b, spentMinor: 0 });
    for (const job of await this.generation.jobsOfTask(caller.workspaceId, task.id)) {
      const spent = (job.chargedMinor ?? 0) - (job.refundedMinor ?? 0);
      if (spent === 0) continue;
      const currency = job.quote.currency;
      const entry = budgets.get(currency) ?? { currency, approvedMinor: 0, spentMinor: 0, approvals: [] };
      budgets.set(currency, { ...entry, spentMinor: entry.spentMinor + spent });
    }
    return [...budgets.values()];
  }
}
