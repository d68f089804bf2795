import { AggregateStream } from '@lomo/command-handling';
import { mainEvents, type EventEnvelope } from '@lomo/contracts';
import { mainLineDecider, mainLineEventTypes, type MainLineState } from '@lomo/domain';
import type { EventStore } from '@lomo/eventstore';
import {
  DEFAULT_ROUTING_SETTINGS,
  type ArtifactBindings,
  type CardOnLine,
  type RoutingSettings,
  type RoutingView,
  type UserMessage,
} from '@lomo/routing';
import { readTask } from './task-writes';

/** How far back on the person's main line the router looks for recent decisions and open cards. */
export const MAIN_LINE_WINDOW = 200;
/** Recent decisions that count for read-your-writes (the newest first). */
const RECENT_DECISIONS = 3;

export interface ViewDeps {
  store: EventStore;
  bindings: ArtifactBindings;
  settings?: RoutingSettings;
}

/**
 * What the planner starts from, read from the log (never from read models, which may lag): the
 * tail of the person's main line (recent decisions, open cards), the explicit target or bound
 * artefact, and the card the message answers.
 */
export async function readRoutingView(deps: ViewDeps, message: EventEnvelope, data: UserMessage): Promise<RoutingView> {
  const { streamId, revision, workspaceId } = message.metadata;
  const from = Math.max(0, revision - MAIN_LINE_WINDOW);
  const window = await deps.store.readStream(streamId, { fromRevision: from });
  const before = window.filter((e) => e.metadata.revision < revision);
  const line = foldLine(streamId, before);
  const view: RoutingView = {
    message: data,
    userId: data.userId,
    recentDecisions: recentDecisions(line),
    taskStates: {},
    settings: deps.settings ?? DEFAULT_ROUTING_SETTINGS,
  };
  const target = data.target;
  if (target?.taskId !== undefined) view.explicitTask = await readTask(deps.store, target.taskId, workspaceId);
  else if (target?.artifactRef !== undefined) {
    const binding = await deps.bindings.lookup(workspaceId, target.artifactRef);
    view.artifact = {
      binding,
      ...(binding.status === 'bound' ? { task: await readTask(deps.store, binding.taskId, workspaceId) } : {}),
    };
  }
  const answering = data.answersCardId;
  if (answering !== undefined) {
    // A card older than the window: read the whole line once (card answers are rare).
    const card =
      cardOnLine(line, before, answering) ?? (await wholeLineCard(deps.store, streamId, revision, answering));
    if (card !== undefined) view.answering = card;
  } else {
    const open = newestOpenCard(line, before);
    if (open !== undefined) view.openCard = open;
  }
  return view;
}

function recentDecisions(line: MainLineState): string[] {
  const taskIds: string[] = [];
  const decisions = Object.values(line.decisions);
  for (let i = decisions.length - 1; i >= 0 && taskIds.length < RECENT_DECISIONS; i -= 1) {
    const taskId = decisions[i]!.taskId;
    if (taskId !== null && !taskIds.includes(taskId)) taskIds.push(taskId);
  }
  return taskIds;
}

function cardOnLine(line: MainLineState, events: readonly EventEnvelope[], cardId: string): CardOnLine | undefined {
  const card = line.clarifications[cardId];
  if (card === undefined) return undefined;
  const asked = events.find((e) => e.type === 'UserMessageReceived' && messageIdOf(e) === card.messageId);
  const request = events.find((e) => e.type === 'ClarificationRequested' && cardIdOf(e) === cardId);
  if (asked === undefined || request === undefined) return undefined;
  const text = mainEvents.UserMessageReceived.parse(asked.data);
  return {
    cardId,
    card,
    question: mainEvents.ClarificationRequested.parse(request.data).question,
    asked: { messageId: text.messageId, text: text.text, language: text.language, channel: text.channel },
    askedRevision: asked.metadata.revision,
  };
}

function newestOpenCard(line: MainLineState, events: readonly EventEnvelope[]): CardOnLine | undefined {
  const open = Object.entries(line.clarifications).filter(([, card]) => card.answer === undefined);
  const newest = open[open.length - 1];
  return newest === undefined ? undefined : cardOnLine(line, events, newest[0]);
}

async function wholeLineCard(
  store: EventStore,
  streamId: string,
  revision: number,
  cardId: string,
): Promise<CardOnLine | undefined> {
  const all = (await store.readStream(streamId)).filter((e) => e.metadata.revision < revision);
  return cardOnLine(foldLine(streamId, all), all, cardId);
}

const messageIdOf = (e: EventEnvelope) => (e.data as { messageId?: string }).messageId;
const cardIdOf = (e: EventEnvelope) => (e.data as { cardId?: string }).cardId;

function foldLine(streamId: string, events: readonly EventEnvelope[]): MainLineState {
  const line = new AggregateStream(streamId, mainLineDecider, mainLineEventTypes);
  line.apply(events);
  return line.state;
}
