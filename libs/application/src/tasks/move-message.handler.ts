import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AggregateStream, handleCommand } from '@lomo/command-handling';
import { ApiError, ApiErrorCodes, deterministicUuid, streams } from '@lomo/contracts';
import {
  DomainError,
  MainLineErrors,
  mainLineDecider,
  mainLineEventTypes,
  moveNote,
  taskDecider,
  TaskErrors,
  taskEventTypes,
  turnDecider,
  turnEventTypes,
  type ExistingTask,
  type InboxItem,
} from '@lomo/domain';
import { traceContext } from '@lomo/observability';
import { publishWakeUp, type CommandDeps } from '@lomo/runtime';
import { COMMAND_DEPS } from '../executor/executor-tokens';
import { MoveMessage, type MoveMessageResult } from './correction-commands';
import { inWorkspace, readTaskIn, userActor, writeMetadata } from './task-in-workspace';

/** A message moved more often than this is refused rather than followed further (a cycle guard). */
const MAX_MOVES_FOLLOWED = 32;

/**
 * Moves a message of the person's own to another task: MessageMoved on the source (an unconsumed
 * item leaves its inbox; a consumed one stays and the target gets a copy with a note), then the
 * delivery on the target (item id = message id), then a wake-up of the target. The source is
 * written first: of the two half-done states that is the one that never has the message in two
 * inboxes. Both writes are no-ops on a repeat, so rerunning the same move completes a half-done
 * one. If the target stopped in between, the message stays on the main line and the error says so.
 */
@CommandHandler(MoveMessage)
export class MoveMessageHandler implements ICommandHandler<MoveMessage, MoveMessageResult> {
  constructor(@Inject(COMMAND_DEPS) private readonly deps: CommandDeps) {}

  execute(command: MoveMessage): Promise<MoveMessageResult> {
    const trace = command.trace ?? traceContext.current();
    return trace ? traceContext.run(trace, () => this.move(command)) : this.move(command);
  }

  private async move(command: MoveMessage): Promise<MoveMessageResult> {
    const { store, ids, logger } = this.deps;
    const { workspaceId, userId, messageId, toTaskId } = command;
    const source = await this.currentTask(command);
    const item = source.inbox[messageId] as InboxItem;
    if (source.taskId === toTaskId)
      throw new DomainError(TaskErrors.MOVE_TO_SAME_TASK, `Message ${messageId} is in task ${toTaskId} already`);
    const target = await readTaskIn(store, toTaskId, workspaceId);
    // Refusals of the target (stopped, closed, holds the message already) before anything is written.
    taskDecider.decide(
      {
        type: 'DeliverMessage',
        itemId: messageId,
        text: item.text,
        language: item.language,
        ...this.movedFrom(source, false),
      },
      target,
    );
    const metadata = writeMetadata(workspaceId, userActor(userId), messageId);
    const claimCommitted = await this.claimCommitted(item);
    const out = await handleCommand(
      store,
      streams.task(source.taskId),
      taskDecider,
      { type: 'MoveMessageOut', itemId: messageId, toTaskId, by: userId, claimCommitted },
      { eventTypes: taskEventTypes, metadata, ids, guard: inWorkspace(source.taskId, workspaceId) },
    );
    const after = out.state.status === 'none' ? undefined : out.state.inbox[messageId];
    const consumed = after?.movedTo?.consumed ?? false;
    const moved = after ?? item;
    const into = await handleCommand(
      store,
      streams.task(toTaskId),
      taskDecider,
      {
        type: 'DeliverMessage',
        itemId: messageId,
        text: moved.text,
        language: moved.language,
        ...this.movedFrom(source, consumed),
      },
      {
        eventTypes: taskEventTypes,
        metadata,
        ids,
        guard: inWorkspace(toTaskId, workspaceId),
        eventIdFor: () => deterministicUuid('lomo.message-moved', toTaskId, messageId),
      },
    );
    await publishWakeUp(this.deps.bus, { kind: 'wake', workspaceId, taskId: toTaskId, reason: 'message' }).catch(
      (error: unknown) =>
        logger.warn(
          { taskId: toTaskId, messageId, error: error instanceof Error ? error.message : String(error) },
          'wake after a move not published; the watchdog finds the inbox',
        ),
    );
    const changed = out.changed || into.changed;
    logger.info(
      { workspaceId, userId, messageId, sourceTaskId: source.taskId, toTaskId, consumed, changed },
      'message moved',
    );
    return {
      messageId,
      sourceTaskId: source.taskId,
      toTaskId,
      consumed,
      changed,
      writes: [...out.writes, ...into.writes],
    };
  }

  private movedFrom(source: ExistingTask, consumedThere: boolean) {
    return {
      movedFrom: { taskId: source.taskId, note: moveNote(source.taskId, 'moved', consumedThere), consumedThere },
    };
  }

  /**
   * The task the message is in now: the one the router delivered it to (the main line's
   * RoutingDecided, on the person's own line, so another person's message is not found), then
   * each later move followed. A move to `toTaskId` itself is not followed: that is this move,
   * half done, being completed.
   */
  private async currentTask(command: MoveMessage): Promise<ExistingTask> {
    const { store } = this.deps;
    const { workspaceId, userId, messageId, toTaskId } = command;
    const main = await AggregateStream.read(
      store,
      streams.main(workspaceId, userId),
      mainLineDecider,
      mainLineEventTypes,
    );
    if (main.state.messages[messageId] === undefined)
      throw new DomainError(MainLineErrors.MESSAGE_NOT_FOUND, `No message ${messageId}`);
    const decision = main.state.decisions[messageId];
    if (decision?.taskId == null) throw notDelivered(messageId, decision !== undefined);
    let task = await readTaskIn(store, decision.taskId, workspaceId);
    for (let moves = 0; ; moves += 1) {
      const item = task.inbox[messageId];
      if (item === undefined) throw notDelivered(messageId, false);
      const next = item.movedTo?.taskId;
      if (next === undefined || next === toTaskId) return task;
      if (moves >= MAX_MOVES_FOLLOWED)
        throw new DomainError(MainLineErrors.INVALID_COMMAND, `Message ${messageId} was moved too often`);
      task = await readTaskIn(store, next, workspaceId);
    }
  }

  /** Whether the step that claimed the item committed with it (only the turn stream knows). */
  private async claimCommitted(item: InboxItem): Promise<boolean> {
    if (item.status !== 'claimed' || item.claimedBy === null) return false;
    const { turnId, step } = item.claimedBy;
    const turn = await AggregateStream.read(this.deps.store, streams.turn(turnId), turnDecider, turnEventTypes);
    if (turn.state.status === 'none') return false;
    return turn.state.steps.some((s) => s.step === step && s.consumedItemIds.includes(item.itemId));
  }
}

/** Decided to stay in Main, or not routed yet (then retrying later can succeed). */
function notDelivered(messageId: string, routed: boolean): ApiError {
  return new ApiError(
    ApiErrorCodes.MESSAGE_NOT_DELIVERED,
    routed ? `Message ${messageId} stayed in Main` : `Message ${messageId} is not delivered to a task yet`,
    { messageId },
    { retriable: !routed },
  );
}
