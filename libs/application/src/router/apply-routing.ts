import { handleCommand } from '@lomo/command-handling';
import { deterministicUuid, streams, type IdGenerator, type WriteMetadata } from '@lomo/contracts';
import { DomainError, mainLineDecider, mainLineEventTypes, taskDecider, taskEventTypes } from '@lomo/domain';
import type { EventStore } from '@lomo/eventstore';
import { replyIdFor, type PlannedRouting, type RoutingDecision } from '@lomo/routing';
import { routingEventIdFor } from './routing-log';

export interface ApplyDeps {
  store: EventStore;
  ids: IdGenerator;
}

/**
 * Step one: the decision and what it says in Main (reply, card, the card it answers), in one
 * append on the main line through the main-line decider. The first decision recorded for a
 * message stands; a rerun finds it and writes nothing.
 */
export async function recordRouting(
  deps: ApplyDeps,
  mainStreamId: string,
  messageRevision: number,
  messageId: string,
  routing: PlannedRouting,
  latencyMs: number,
  userId: string,
  metadata: WriteMetadata,
): Promise<{ decision: RoutingDecision; written: boolean }> {
  const effects = {
    ...(routing.reply === undefined ? {} : { reply: { replyId: replyIdFor(messageId), ...routing.reply } }),
    ...(routing.clarification === undefined
      ? {}
      : { clarification: { cardId: deterministicUuid('lomo.card', messageId), ...routing.clarification } }),
    ...(routing.answer === undefined ? {} : { answer: { ...answerOf(routing.answer), by: userId } }),
  };
  let index = 0;
  const result = await handleCommand(
    deps.store,
    mainStreamId,
    mainLineDecider,
    {
      type: 'RecordRoutingDecision',
      messageId,
      ...routing.decision,
      latencyMs: Math.round(latencyMs * 10) / 10,
      effects,
    },
    {
      eventTypes: mainLineEventTypes,
      metadata,
      ids: deps.ids,
      // A card answer folds from the asked message, so the card is in the state.
      fromRevision: Math.min(messageRevision, routing.answer?.fromRevision ?? messageRevision),
      // The decision's event id derives from the message (one decision per message); the events
      // written with it from the decision's id and their place.
      eventIdFor: () =>
        index++ === 0
          ? routingEventIdFor(messageId)
          : deterministicUuid('lomo.routing-effect', messageId, String(index)),
    },
  );
  const decision = result.state.decisions[messageId];
  if (decision === undefined) throw new Error(`routing decision for ${messageId} was not recorded`);
  return { decision, written: result.changed };
}

/**
 * Step two, after the decision is on record: create the task, upgrade it, deliver the message.
 * Each write is idempotent (a new task's id derives from the message; an inbox item's id is the
 * message id), so a crash between any two is repaired by routing the message again.
 * Returns the task the message sits in, or null when the target refused it meanwhile.
 */
export async function applyTaskEffects(
  deps: ApplyDeps,
  decision: RoutingDecision,
  routing: Pick<PlannedRouting, 'create' | 'deliver' | 'upgrade'>,
  metadata: WriteMetadata,
  onRefused: (error: DomainError, taskId: string) => void,
): Promise<string | null> {
  const taskId = decision.taskId;
  if (taskId === null || routing.deliver === undefined) return null;
  const stream = streams.task(taskId);
  const options = (name: string) => ({
    eventTypes: taskEventTypes,
    metadata,
    ids: deps.ids,
    eventIdFor: () => deterministicUuid(name, taskId, routing.deliver!.messageId),
  });
  try {
    if (routing.create !== undefined && (decision.outcome === 'new' || decision.outcome === 'lightweight'))
      await handleCommand(
        deps.store,
        stream,
        taskDecider,
        { type: 'CreateTask', taskId, ...routing.create, originMessageId: routing.deliver.messageId },
        { ...options('lomo.task-created'), eventIdFor: () => deterministicUuid('lomo.task-created', taskId) },
      );
    if (routing.upgrade !== undefined)
      await handleCommand(
        deps.store,
        stream,
        taskDecider,
        { type: 'UpgradeTask', reason: routing.upgrade.reason, by: { kind: 'system', component: 'router' } },
        options('lomo.task-upgraded'),
      );
    await handleCommand(
      deps.store,
      stream,
      taskDecider,
      {
        type: 'DeliverMessage',
        itemId: routing.deliver.messageId,
        text: routing.deliver.text,
        language: routing.deliver.language,
        ...(routing.deliver.channel !== undefined ? { channel: routing.deliver.channel } : {}),
        ...(routing.deliver.from !== undefined ? { from: routing.deliver.from } : {}),
      },
      {
        ...options('lomo.inbox-delivery'),
        eventIdFor: () => deterministicUuid('lomo.inbox-delivery', taskId, routing.deliver!.messageId),
      },
    );
    return taskId;
  } catch (error) {
    // The target was stopped or closed between the decision and the delivery. The message stays
    // in Main with the decision on record; re-running cannot change that, so it is not retried.
    if (!(error instanceof DomainError)) throw error;
    onRefused(error, taskId);
    return null;
  }
}

function answerOf(answer: NonNullable<PlannedRouting['answer']>) {
  const { fromRevision: _from, ...rest } = answer;
  return rest;
}
