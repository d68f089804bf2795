import { Inject } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { Args, Mutation, Resolver } from '@nestjs/graphql';
import { streams, ApiError, ApiErrorCodes, notFound } from '@lomo/contracts';
import { API_READ_MODELS, type ApiReadModels } from '../../api-di-tokens';
import type { Caller } from '@lomo/auth';
import { CurrentCaller } from '../../auth/current-caller.decorator';
import { currentTrace } from '../../consistency/current-trace';
import { tokenForWrites } from '../../consistency/token-for-writes';
import {
  messageLanguage,
  ReceiveUserMessage,
  type ReceiveUserMessageResult,
  ReplaceMessage,
  WithdrawMessage,
  type TaskWriteResult,
} from '@lomo/application';
import { StreamOwnership } from '../../tenancy/stream-ownership';
import { sendMessageInput, validate } from '../args/input-schemas';
import {
  ReplaceMessageArgs,
  SendMessageArgs,
  WithdrawMessageArgs,
  replaceMessageSchema,
  withdrawMessageSchema,
} from '../args/mutation.args';
import { MessageChangePayload, SendMessagePayload } from '../types/payloads';

const artifactIdOf = (ref: string) => ref.slice('artifact:'.length, 'artifact:'.length + 36);

@Resolver()
export class MessageMutationsResolver {
  constructor(
    @Inject(CommandBus) private readonly commands: CommandBus,
    @Inject(API_READ_MODELS) private readonly readModels: ApiReadModels,
    @Inject(StreamOwnership) private readonly ownership: StreamOwnership,
  ) {}

  @Mutation(() => SendMessagePayload, { description: 'A message to Main; the router decides where it goes.' })
  async sendMessage(@CurrentCaller() caller: Caller, @Args() args: SendMessageArgs): Promise<SendMessagePayload> {
    const input = validate(sendMessageInput, args);
    // The router delivers to a named task by id alone: the workspace is checked here.
    if (input.taskId !== undefined)
      await this.ownership.require(streams.task(input.taskId), caller, 'task', input.taskId);
    if (input.artifactRef !== undefined) {
      const artifactId = artifactIdOf(input.artifactRef);
      await this.ownership.require(`artifact-${artifactId}`, caller, 'artifact', artifactId);
    }
    const language = messageLanguage(input.text, input.language);
    const target =
      input.taskId !== undefined || input.artifactRef !== undefined
        ? {
            ...(input.taskId !== undefined ? { taskId: input.taskId } : {}),
            ...(input.artifactRef !== undefined ? { artifactRef: input.artifactRef } : {}),
          }
        : undefined;
    const result = await this.commands.execute<ReceiveUserMessage, ReceiveUserMessageResult>(
      new ReceiveUserMessage(
        caller.workspaceId,
        caller.userId,
        input.text,
        language,
        // An integration's token is an external system (channel `api`: its paid work is
        // confirmed call by call); a person's token is the person's own UI.
        caller.kind === 'integration' ? 'api' : 'ui',
        currentTrace(),
        input.clientMessageId,
        target,
      ),
    );
    return {
      messageId: result.messageId,
      created: result.created,
      language,
      consistencyToken: tokenForWrites([result]),
    };
  }

  @Mutation(() => MessageChangePayload, {
    description: "Takes a message back out of its task's inbox before it is read.",
  })
  async withdrawMessage(
    @CurrentCaller() caller: Caller,
    @Args() args: WithdrawMessageArgs,
  ): Promise<MessageChangePayload> {
    const { messageId } = validate(withdrawMessageSchema, args);
    const taskId = await this.deliveredTo(caller, messageId);
    const by = { workspaceId: caller.workspaceId, userId: caller.userId, trace: currentTrace() };
    const result = await this.commands.execute<WithdrawMessage, TaskWriteResult>(
      new WithdrawMessage(taskId, messageId, by),
    );
    return this.payload(messageId, result);
  }

  @Mutation(() => MessageChangePayload, { description: "Changes a message still waiting in its task's inbox." })
  async replaceMessage(
    @CurrentCaller() caller: Caller,
    @Args() args: ReplaceMessageArgs,
  ): Promise<MessageChangePayload> {
    const { messageId, text, language } = validate(replaceMessageSchema, args);
    const taskId = await this.deliveredTo(caller, messageId);
    const by = { workspaceId: caller.workspaceId, userId: caller.userId, trace: currentTrace() };
    const result = await this.commands.execute<ReplaceMessage, TaskWriteResult>(
      new ReplaceMessage(taskId, messageId, text, messageLanguage(text, language), by),
    );
    return this.payload(messageId, result);
  }

  /** The task a message of the caller's own was routed to, from the main-line read model. */
  private async deliveredTo(caller: Caller, messageId: string): Promise<string> {
    const message = await this.readModels.getMessage(caller.workspaceId, messageId);
    if (message === undefined || message.kind !== 'message' || message.userId !== caller.userId) {
      throw notFound('message', messageId);
    }
    const taskId = message.routing?.taskId ?? null;
    if (taskId === null) {
      const routed = message.routing !== null;
      throw new ApiError(
        ApiErrorCodes.MESSAGE_NOT_DELIVERED,
        routed ? `Message ${messageId} stayed in Main` : `Message ${messageId} is not routed yet`,
        { messageId },
        { retriable: !routed },
      );
    }
    return taskId;
  }

  private payload(messageId: string, result: TaskWriteResult): MessageChangePayload {
    return {
      messageId,
      taskId: result.taskId,
      changed: result.changed,
      consistencyToken: tokenForWrites(result.writes),
    };
  }
}
