import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import {
  ID_GENERATOR,
  mainEvents,
  ValidationError,
  zodIssues,
  type EventEnvelope,
  type IdGenerator,
} from '@lomo/contracts';
import { DomainError } from '@lomo/domain';
import { EVENT_STORE, type EventStore } from '@lomo/eventstore';
import { LOGGER, type Logger } from '@lomo/observability';
import { RouteUserMessage, type RouteUserMessageResult } from './route-user-message.command';
import { decideRouting, type RoutingDecision, type UserMessage } from './routing-decision';
import { findRecordedDecision, recordDecision } from './routing-log';
import { routerMetadata } from './router-metadata';
import { createTaskFromMessage, deliverToInbox, readTask } from './task-writes';
import { WakeUpPublisher } from './wake-up-publisher';

/**
 * Routes a message in an order that survives a crash anywhere (DESIGN.md §4 step 2): the decision
 * is recorded first; then the task is created (new task) and the message delivered, each write
 * idempotent; then the task is woken. A redelivered message re-runs everything and writes only
 * what is missing.
 */
@CommandHandler(RouteUserMessage)
export class RouteUserMessageHandler implements ICommandHandler<RouteUserMessage, RouteUserMessageResult> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    @Inject(WakeUpPublisher) private readonly wakeUps: WakeUpPublisher,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  private get writes() {
    return { store: this.store, ids: this.ids };
  }

  async execute({ message }: RouteUserMessage): Promise<RouteUserMessageResult> {
    const { decision, written } = await this.recordRouting(message);
    const deliveredTo = await this.deliver(message, decision);
    const woke = deliveredTo !== null;
    if (woke) await this.wakeUps.wake(message.metadata.workspaceId, deliveredTo);
    this.logger.info(
      {
        messageId: decision.messageId,
        outcome: decision.outcome,
        taskId: decision.taskId,
        decisionWritten: written,
        deliveredTo,
        workspaceId: message.metadata.workspaceId,
      },
      'message routed',
    );
    return { decision, decisionWritten: written, deliveredTo, woke };
  }

  /** Step one on its own: decide (or find the earlier decision) and record it. */
  async recordRouting(message: EventEnvelope): Promise<{ decision: RoutingDecision; written: boolean }> {
    const data = userMessageOf(message);
    const { streamId, revision } = message.metadata;
    const recorded = await findRecordedDecision(this.store, streamId, revision, data.messageId);
    if (recorded) return { decision: recorded, written: false };
    const targetId = data.target?.taskId;
    const target =
      targetId === undefined ? undefined : await readTask(this.store, targetId, message.metadata.workspaceId);
    return recordDecision(this.writes, streamId, revision, decideRouting(data, target), routerMetadata(message));
  }

  /** Acts on the recorded decision; returns the task the message sits in, or null. */
  private async deliver(message: EventEnvelope, decision: RoutingDecision): Promise<string | null> {
    const data = userMessageOf(message);
    const metadata = routerMetadata(message);
    const taskId = decision.taskId;
    if (taskId === null) return null;
    try {
      if (decision.outcome === 'new') await createTaskFromMessage(this.writes, taskId, data, metadata);
      await deliverToInbox(this.writes, taskId, data, metadata);
      return taskId;
    } catch (error) {
      // The target was stopped or closed between the decision and the delivery. The message stays
      // in Main and the decision on record; re-running cannot change that, so it is not retried.
      if (!(error instanceof DomainError)) throw error;
      this.logger.warn(
        { messageId: data.messageId, taskId, code: error.code, workspaceId: metadata.workspaceId },
        'delivery refused by the target task',
      );
      return null;
    }
  }
}

function userMessageOf(message: EventEnvelope): UserMessage {
  if (message.type !== 'UserMessageReceived')
    throw new ValidationError(`Expected UserMessageReceived, got ${message.type}`, []);
  const parsed = mainEvents.UserMessageReceived.safeParse(message.data);
  if (!parsed.success)
    throw new ValidationError('UserMessageReceived does not match its contract', zodIssues(parsed.error));
  return parsed.data;
}
