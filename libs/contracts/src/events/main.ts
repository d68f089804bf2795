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
