import { z } from 'zod';
import { languageTag } from '../ids';

/**
 * The structured conversation between the router and a model (DESIGN.md §4 step 2). The router
 * sends `RoutingPrompt` as JSON in the last user message and asks for a `RoutingAnswer` (a
 * structured output: JSON Schema, strict); before creating a persistent task it may send a
 * `DuplicatePrompt` and ask for a `DuplicateAnswer`. Tasks are named by short refs ("t1", "t2")
 * valid within one prompt, never by ids: shorter, and a model cannot invent a real task id.
 *
 * Every field of an answer is present (nullable where it may be empty): OpenAI's strict mode
 * requires all properties to be required.
 */
export const ROUTING_ANSWER_SCHEMA_NAME = 'route_message';
export const DUPLICATE_ANSWER_SCHEMA_NAME = 'check_duplicate';

export const taskRef = z.string().regex(/^t[0-9]{1,4}$/, 'a task ref as given in the prompt, e.g. t3');

export const routingPromptCandidate = z.strictObject({
  ref: taskRef,
  goal: z.string(),
  summary: z.string().nullable(),
  kind: z.enum(['lightweight', 'persistent']),
  status: z.enum(['active', 'waiting', 'paused', 'stopped', 'completed', 'archived']),
  /** ISO time of the task's last activity. */
  lastActiveAt: z.string(),
  /** Why it is in the prompt: recently active, retrieved for older work, or routed to moments ago. */
  source: z.enum(['recent', 'retrieval', 'recent_decision']),
});

export const RoutingPrompt = z.strictObject({
  message: z.strictObject({ text: z.string(), language: languageTag, channel: z.enum(['ui', 'api', 'card']) }),
  candidates: z.array(routingPromptCandidate),
  /** A question the router asked this person and that is still open; the message may answer it. */
  pendingClarification: z
    .strictObject({
      question: z.string(),
      options: z.array(z.strictObject({ ref: taskRef.nullable(), label: z.string() })),
    })
    .nullable(),
});

export const RoutingAnswer = z.strictObject({
  outcome: z.enum(['main', 'lightweight', 'existing', 'new', 'clarify']),
  /** The chosen task for `existing`; null otherwise. */
  taskRef: taskRef.nullable(),
  /** The model's confidence per candidate it considered, 0..1. */
  scores: z.array(z.strictObject({ ref: taskRef, score: z.number().min(0).max(1) })),
  /** Main's answer, for `main`, in the person's language and script. */
  reply: z.string().nullable(),
  /** A short goal for a new task, for `lightweight` and `new`. */
  goal: z.string().nullable(),
  /** The question to ask, for `clarify`, in the person's language and script. */
  question: z.string().nullable(),
});

export const DuplicatePrompt = z.strictObject({
  goal: z.string(),
  language: languageTag,
  candidates: z.array(
    z.strictObject({ ref: taskRef, goal: z.string(), summary: z.string().nullable(), score: z.number() }),
  ),
});

export const DuplicateAnswer = z.strictObject({
  verdict: z.enum(['reuse', 'new', 'ask']),
  taskRef: taskRef.nullable(),
});

export type RoutingPrompt = z.infer<typeof RoutingPrompt>;
export type RoutingPromptCandidate = z.infer<typeof routingPromptCandidate>;
export type RoutingAnswer = z.infer<typeof RoutingAnswer>;
export type DuplicatePrompt = z.infer<typeof DuplicatePrompt>;
export type DuplicateAnswer = z.infer<typeof DuplicateAnswer>;
