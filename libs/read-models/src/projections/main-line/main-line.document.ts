import type { EventDataMap } from '@lomo/contracts';
import type { ProjectionDocument } from '../engine/projection-definition';

type Data<T extends keyof EventDataMap> = EventDataMap[T];
type ClarificationOption = Data<'ClarificationRequested'>['options'][number];

/**
 * `main_line`: the person's conversation with Main, one document per message (`_id` =
 * messageId), plus one per task card shown on its own (`_id` = cardId). Every field comes from
 * the person's `main-{workspaceId}.{userId}` stream.
 */
export type MainLineDocument = ProjectionDocument & {
  kind: 'message' | 'card' | null;
  userId: string;
  /** Main-stream revision of the event that created the item: the line's order. */
  seq: number | null;
  createdAt: string | null;
  messageId: string | null;
  text: string | null;
  language: string | null;
  channel: Data<'UserMessageReceived'>['channel'] | null;
  target: { taskId: string | null; artifactRef: string | null } | null;
  clientMessageId: string | null;
  /** The clarification card this message answers (a card button or a text answer to it). */
  answersCardId: string | null;
  /** Set once RoutingDecided arrives. */
  routing: {
    outcome: Data<'RoutingDecided'>['outcome'];
    taskId: string | null;
    method: Data<'RoutingDecided'>['method'];
    reason: string | null;
    answersCardId: string | null;
    decidedAt: string;
  } | null;
  /** The card Main asked instead of routing; `answered` once ClarificationAnswered (keyed by this message). */
  clarification: {
    cardId: string;
    question: string;
    options: Array<{
      optionId: string;
      label: string;
      action: ClarificationOption['action'];
      taskId: string | null;
    }>;
    reason: Data<'ClarificationRequested'>['reason'];
    language: string;
    askedAt: string;
    answered: { optionId: string | null; text: string | null; answerMessageId: string; answeredAt: string } | null;
  } | null;
  reply: { replyId: string; text: string; language: string; repliedAt: string } | null;
  card: {
    cardId: string;
    taskId: string;
    title: string;
    status: Data<'TaskCardShown'>['status'];
    summary: string | null;
    shownAt: string;
  } | null;
};
