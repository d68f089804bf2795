import { z } from 'zod';
import { blobRef, nonBlank } from './shared';
import { artifactRef, languageTag, messageId, taskId, userId, uuid } from '../ids';

export const MAX_MESSAGE_TEXT = 20_000;

export const UserMessageReceived = z.strictObject({
  messageId,
  userId,
  text: nonBlank(MAX_MESSAGE_TEXT),
  language: languageTag,
  channel: z.enum(['ui', 'api', 'card']),
  target: z
    .strictObject({ taskId: taskId.optional(), artifactRef: artifactRef.optional() })
    .refine((t) => t.taskId !== undefined || t.artifactRef !== undefined, 'a target names a task or an artefact')
    .optional(),
  clientMessageId: z
    .string()
    .regex(/^[A-Za-z0-9_.:-]{1,128}$/)
    .optional(),
  /** Set when the message is the person's answer to a clarification card (channel `card`). */
  answersCardId: uuid.optional(),
});

/** Where a candidate came from: named by the message, bound artefact, recent activity, retrieval, the duplicate check, or a decision the router made moments ago. */
export const routingCandidateSource = z.enum([
  'recent',
  'retrieval',
  'explicit',
  'artifact',
  'duplicate',
  'recent_decision',
]);

const routingCandidate = z.strictObject({
  taskId,
  score: z.number().min(0).max(1),
  source: routingCandidateSource,
});

const outcomesWithTask = ['lightweight', 'existing', 'new'] as const;

export const routingOutcome = z.enum(['main', 'lightweight', 'existing', 'new', 'clarify']);

export const RoutingDecided = z
  .strictObject({
    messageId,
    outcome: routingOutcome,
    taskId: taskId.nullable(),
    method: z.enum(['deterministic', 'semantic']),
    candidates: z.array(routingCandidate).max(100),
    reason: z.string().max(2000).optional(),
    /** The duplicate check run before a new persistent task (DESIGN.md §4 step 2), recorded whatever the verdict. */
    duplicateCheck: z
      .strictObject({
        candidates: z.array(z.strictObject({ taskId, score: z.number().min(0).max(1) })).max(50),
        verdict: z.enum(['none', 'reuse', 'new', 'ask']),
      })
      .optional(),
    /** The prompt the model saw (a blob reference), when the decision was semantic. */
    promptRef: blobRef.optional(),
    /** The model call(s) behind a semantic decision. */
    modelStep: z
      .strictObject({
        model: z.string().min(1).max(200),
        attempts: z.number().int().min(1).max(10),
        inputTokens: z.number().int().min(0),
        outputTokens: z.number().int().min(0),
        /** Why the model's answer was not used, when it was not (a timeout, two invalid answers). */
        failure: z.string().max(500).optional(),
      })
      .optional(),
    latencyMs: z.number().min(0).optional(),
    /** The clarification card this message answered, when it answered one. */
    answersCardId: uuid.optional(),
  })
  .refine(
    (d) => (outcomesWithTask as readonly string[]).includes(d.outcome) === (d.taskId !== null),
    'taskId is set exactly when the outcome is lightweight, existing or new',
  );

export const clarificationReason = z.enum([
  'ambiguous',
  'target_unavailable',
  'model_unavailable',
  'invalid_answer',
  'duplicate',
  'model_asked',
]);

const clarificationOption = z.strictObject({
  /** Stable within the card: what an answer names. */
  optionId: z.string().regex(/^[a-z0-9_-]{1,64}$/),
  label: z.string().min(1).max(200),
  action: z.enum(['route', 'new', 'reopen']),
  taskId: taskId.optional(),
});

export const ClarificationRequested = z.strictObject({
  messageId,
  cardId: uuid,
  question: z.string().min(1).max(4000),
  options: z.array(clarificationOption).max(10),
  reason: clarificationReason,
  language: languageTag,
});

/** The person answered a clarification card, by a choice or in text; a card is answered once. */
export const ClarificationAnswered = z
  .strictObject({
    cardId: uuid,
    /** The message the card asked about. */
    messageId,
    /** The person's answer as a message on the main line (a card action or a text reply). */
    answerMessageId: messageId,
    optionId: z
      .string()
      .regex(/^[a-z0-9_-]{1,64}$/)
      .optional(),
    text: z.string().min(1).max(MAX_MESSAGE_TEXT).optional(),
    by: userId,
  })
  .refine((d) => d.optionId !== undefined || d.text !== undefined, 'an answer names an option or carries text');

export const MainReplied = z.strictObject({
  messageId,
  replyId: z.uuid(),
  text: z.string().min(1).max(MAX_MESSAGE_TEXT),
  language: languageTag,
});

export const TaskCardShown = z.strictObject({
  cardId: z.uuid(),
  taskId,
  messageId: messageId.optional(),
  title: z.string().min(1).max(200),
  status: z.enum(['active', 'waiting', 'paused', 'stopped', 'completed', 'archived']),
  summary: z.string().max(2000).optional(),
});

/**
 * receipt-{workspaceId}.{userId}.{messageId}: a client's message id was taken. The main line's
 * head before it bounds where the message can be, so a retry finds it (or repairs a crash between
 * the two writes) by reading only the main line's tail from there.
 */
export const MessageReceiptReserved = z.strictObject({
  messageId,
  mainStreamId: z.string().min(6).max(220),
  /** The main line's last revision before the message, or -1 when it had none. */
  mainRevisionBefore: z.number().int().min(-1),
});
