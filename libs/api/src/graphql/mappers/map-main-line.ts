import type { MainLineDocument } from '@lomo/read-models';
import type { MainLineItem } from '../types/main-line.types';

export function mapMainLineItem(d: MainLineDocument): MainLineItem {
  return {
    id: d._id,
    kind: d.kind,
    seq: d.seq,
    createdAt: d.createdAt,
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
  };
}
