import type { MainLineDocument } from '@lomo/read-models';
import type { MainLineItem } from '../types/main-line.types';
import { mapCheckpoint } from './map-task';

export function mapMainLineItem(d: MainLineDocument): MainLineItem {
  const checkpoints = d.checkpoints ?? null;
  return {
    id: d._id,
    kind: d.kind,
    seq: d.seq,
    // The line's order (`at`): a message's arrival, or when a task's latest card opened.
    createdAt: d.at ?? d.createdAt,
    text: d.text,
    language: d.language,
    channel: d.channel,
    target: d.target,
    clientMessageId: d.clientMessageId,
    answersCardId: d.answersCardId,
    routing: d.routing,
    clarification: d.clarification,
    reply: d.reply,
    card: d.card,
    checkpoints: checkpoints === null ? [] : checkpoints.cards.map((c) => mapCheckpoint(checkpoints.taskId, c)),
  };
}
