import type { EventDataMap } from '@lomo/contracts';
import type { ProjectionDocument } from '../engine/projection-definition';
import type { TaskCheckpoint } from '../tasks/task.document';

type Data<T extends keyof EventDataMap> = EventDataMap[T];
type ClarificationOption = Data<'ClarificationRequested'>['options'][number];

/**
 * The checkpoint cards of one task as its person's main line shows them: open ones wait for
 * `resolveCheckpoint`, resolved ones carry the decision. Folded by the tasks projection's rules
 * (a card opens once, the person's first resolution stands, the agent's own never counts).
 */
export type MainLineCheckpoints = {
  taskId: string;
  /** Oldest first. */
  cards: TaskCheckpoint[];
  /** When the latest card opened: the item's place on the line. */
  lastOpenedAt: string;
};

/**
 * `main_line`: the person's conversation with Main, one document per message (`_id` =
 * messageId), one per task card shown on its own (`_id` = cardId), and one per task holding its
 * checkpoint cards (`_id` = checkpointsItemId(taskId)). Messages and task cards come from the
 * person's `main-{workspaceId}.{userId}` stream; a task's checkpoint cards from its `task-{id}`
 * stream, on the line of the person whose message created the task (that routing decision, on
 * their main stream, names the task).
 */
export type MainLineDocument = ProjectionDocument & {
  /** Derived from what the item holds; null while it holds nothing to show (a task without cards). */
  kind: 'message' | 'card' | 'checkpoints' | null;
  /** Whose line it is; null for a task's cards until the routing decision that created the task. */
  userId: string | null;
  /** Main-stream revision of the event that created the item; null for a task's cards. */
  seq: number | null;
  createdAt: string | null;
  /**
   * Derived: the item's place on the line (newest first, then `seq`): when the message came or
   * the card was shown; for a task's checkpoint cards, when the latest one opened.
   */
  at: string | null;
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
  /** A task's checkpoint cards (from its task stream); null on other items. */
  checkpoints: MainLineCheckpoints | null;
};
