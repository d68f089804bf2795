import { Inject } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { Args, Mutation, Resolver } from '@nestjs/graphql';
import { streams } from '@lomo/contracts';
import {
  AnswerClarification,
  MergeTasks,
  MoveMessage,
  UpgradeTask,
  type CorrectionResult,
  type MergeTasksResult,
  type MoveMessageResult,
  type ReceiveUserMessageResult,
} from '@lomo/application';
import type { Caller } from '@lomo/auth';
import { CurrentCaller } from '../../auth/current-caller.decorator';
import { currentTrace } from '../../consistency/current-trace';
import { tokenForWrites } from '../../consistency/token-for-writes';
import { StreamOwnership } from '../../tenancy/stream-ownership';
import { validate } from '../args/input-schemas';
import {
  AnswerClarificationArgs,
  MergeTasksArgs,
  MoveMessageArgs,
  TaskWithReasonArgs,
  answerClarificationSchema,
  mergeTasksSchema,
  moveMessageSchema,
  taskWithReasonSchema,
} from '../args/mutation.args';
import {
  AnswerClarificationPayload,
  MergeTasksPayload,
  MoveMessagePayload,
  TaskChangePayload,
} from '../types/payloads';

/** What an upgrade records when the person gives no reason. */
const UPGRADED_BY_THE_PERSON = 'upgraded by the person';

/**
 * The person's answers and corrections of routing. Each names ids the caller must own: tasks are
 * checked against the caller's workspace here (NOT_FOUND, the same as no such task), a card or a
 * message against the caller's own main line by the command (NOT_FOUND too). Every refusal comes
 * before anything is appended.
 */
@Resolver()
export class CorrectionMutationsResolver {
  constructor(
    @Inject(CommandBus) private readonly commands: CommandBus,
    @Inject(StreamOwnership) private readonly ownership: StreamOwnership,
  ) {}

  @Mutation(() => AnswerClarificationPayload, {
    description: 'Answers a clarification card on your main line, by one of its options or in text; once per card.',
  })
  async answerClarification(
    @CurrentCaller() caller: Caller,
    @Args() args: AnswerClarificationArgs,
  ): Promise<AnswerClarificationPayload> {
    const { cardId, optionId, text } = validate(answerClarificationSchema, args);
    const choice = optionId !== undefined ? { optionId } : { text: text as string };
    const result = await this.commands.execute<AnswerClarification, ReceiveUserMessageResult>(
      new AnswerClarification(caller.workspaceId, caller.userId, cardId, choice, currentTrace()),
    );
    return {
      cardId,
      messageId: result.messageId,
      created: result.created,
      consistencyToken: tokenForWrites([result]),
    };
  }

  @Mutation(() => MoveMessagePayload, {
    description:
      'Moves your message to another task: taken out of its inbox if unread there, otherwise copied with a note.',
  })
  async moveMessage(@CurrentCaller() caller: Caller, @Args() args: MoveMessageArgs): Promise<MoveMessagePayload> {
    const { messageId, toTaskId } = validate(moveMessageSchema, args);
    await this.ownership.require(streams.task(toTaskId), caller, 'task', toTaskId);
    const result = await this.commands.execute<MoveMessage, MoveMessageResult>(
      new MoveMessage(caller.workspaceId, caller.userId, messageId, toTaskId, currentTrace()),
    );
    return {
      messageId,
      fromTaskId: result.sourceTaskId,
      toTaskId: result.toTaskId,
      consumed: result.consumed,
      changed: result.changed,
      consistencyToken: tokenForWrites(result.writes),
    };
  }

  @Mutation(() => MergeTasksPayload, {
    description: 'Merges the source task into the target: its unread messages move, it is archived with a pointer.',
  })
  async mergeTasks(@CurrentCaller() caller: Caller, @Args() args: MergeTasksArgs): Promise<MergeTasksPayload> {
    const { sourceId, targetId } = validate(mergeTasksSchema, args);
    for (const taskId of new Set([sourceId, targetId]))
      await this.ownership.require(streams.task(taskId), caller, 'task', taskId);
    const result = await this.commands.execute<MergeTasks, MergeTasksResult>(
      new MergeTasks(caller.workspaceId, caller.userId, sourceId, targetId, currentTrace()),
    );
    return {
      sourceTaskId: result.sourceTaskId,
      targetTaskId: result.targetTaskId,
      movedItemIds: result.movedItemIds,
      changed: result.changed,
      consistencyToken: tokenForWrites(result.writes),
    };
  }

  @Mutation(() => TaskChangePayload, {
    description: 'Makes a lightweight task persistent, keeping its history: it is listed with your tasks again.',
  })
  async upgradeTask(@CurrentCaller() caller: Caller, @Args() args: TaskWithReasonArgs): Promise<TaskChangePayload> {
    const { taskId, reason } = validate(taskWithReasonSchema, args);
    await this.ownership.require(streams.task(taskId), caller, 'task', taskId);
    const result = await this.commands.execute<UpgradeTask, CorrectionResult>(
      new UpgradeTask(
        caller.workspaceId,
        taskId,
        { kind: 'user', userId: caller.userId },
        reason ?? UPGRADED_BY_THE_PERSON,
        currentTrace(),
      ),
    );
    return {
      taskId,
      changed: result.changed,
      cancelledTurnId: null,
      consistencyToken: tokenForWrites(result.writes),
    };
  }
}
