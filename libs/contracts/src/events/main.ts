import { z } from 'zod';
import { nonBlank } from './shared';
import { artifactRef, languageTag, messageId, taskId, userId } from '../ids';

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
});

const routingCandidate = z.strictObject({
  taskId,
  score: z.number().min(0).max(1),
  source: z.enum(['recent', 'retrieval', 'explicit']),
});

const outcomesWithTask = ['lightweight', 'existing', 'new'] as const;

export const RoutingDecided = z
  .strictObject({
    messageId,
    outcome: z.enum(['main', 'lightweight', 'existing', 'new', 'clarify']),
    taskId: taskId.nullable(),
    method: z.enum(['deterministic', 'semantic']),
    candidates: z.array(routingCandidate).max(100),
    reason: z.string().max(2000).optional(),
  })
  .refine(
    (d) => (outcomesWithTask as readonly string[]).includes(d.outcome) === (d.taskId !== null),
    'taskId is set exactly when the outcome is lightweight, existing or new',
  );

export const ClarificationRequested = z.strictObject({
  messageId,
  question: z.string().min(1).max(4000),
  options: z.array(z.strictObject({ label: z.string().min(1).max(200), taskId: taskId.optional() })).max(10),
});

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
