import { Inject } from '@nestjs/common';
import { Args, Parent, Query, ResolveField, Resolver } from '@nestjs/graphql';
import { API_READ_MODELS, type ApiReadModels } from '../../api-di-tokens';
import type { Caller } from '@lomo/auth';
import { CurrentCaller } from '../../auth/current-caller.decorator';
import { ReadAfterWrite } from '../../consistency/read-after-write';
import { validate } from '../args/input-schemas';
import { ByIdArgs, PageArgs, byIdArgsSchema, pageArgsSchema } from '../args/query.args';
import { mapTask } from '../mappers/map-task';
import { ledgerOf, mapToolCall, mapTurn, mapTurnStep } from '../mappers/map-turn';
import { pageOfList } from '../paging';
import type { ConnectionShape } from '../types/connection';
import { Task } from '../types/task.types';
import { ToolCall, ToolCallConnection, Turn, TurnStep, TurnStepConnection } from '../types/turn.types';

/**
 * A turn's steps and ledger live in its one document; the parent carries only the id, so they
 * are read again here (one get by id) rather than carried through every Turn object.
 */
@Resolver(() => Turn)
export class TurnsResolver {
  constructor(
    @Inject(API_READ_MODELS) private readonly readModels: ApiReadModels,
    @Inject(ReadAfterWrite) private readonly readAfterWrite: ReadAfterWrite,
  ) {}

  @Query(() => Turn, { nullable: true, description: 'A turn of your workspace, with its steps and ledger.' })
  async turn(@CurrentCaller() caller: Caller, @Args() args: ByIdArgs): Promise<Turn | null> {
    const { id, consistentWith } = validate(byIdArgsSchema, args);
    await this.readAfterWrite.await(caller, consistentWith);
    const document = await this.readModels.getTurn(caller.workspaceId, id);
    return document === undefined ? null : mapTurn(document);
  }

  @ResolveField(() => TurnStepConnection, { description: 'Committed model steps, in order.' })
  async steps(
    @CurrentCaller() caller: Caller,
    @Parent() turn: Turn,
    @Args() args: PageArgs,
  ): Promise<ConnectionShape<TurnStep>> {
    const { first, after } = validate(pageArgsSchema, args);
    const document = await this.readModels.getTurn(caller.workspaceId, turn.id);
    return pageOfList(document?.steps ?? [], first, after, (s) => mapTurnStep(turn.id, caller.workspaceId, s));
  }

  @ResolveField(() => ToolCallConnection, { description: 'The tool-call ledger, by step and index.' })
  async ledger(
    @CurrentCaller() caller: Caller,
    @Parent() turn: Turn,
    @Args() args: PageArgs,
  ): Promise<ConnectionShape<ToolCall>> {
    const { first, after } = validate(pageArgsSchema, args);
    const document = await this.readModels.getTurn(caller.workspaceId, turn.id);
    return pageOfList(document === undefined ? [] : ledgerOf(document), first, after, mapToolCall);
  }

  @ResolveField(() => Task, { nullable: true })
  async task(@CurrentCaller() caller: Caller, @Parent() turn: Turn): Promise<Task | null> {
    if (turn.taskId === null) return null;
    const document = await this.readModels.getTask(caller.workspaceId, turn.taskId);
    return document === undefined ? null : mapTask(document);
  }
}
